/**
 * Pins the security- and contract-relevant parts of the synthesized CloudFormation template:
 * table layout, one guarded method per route, least-privilege table access, gateway error bodies,
 * the webhook pipeline (stream mapping, queues, DLQs, alarms, the confined delivery role), the
 * console and API on one CloudFront origin (private bucket, behaviours, edge functions, origin
 * secret, security headers) and the Lambda bundles themselves. Expectations come from the route
 * table, TABLE_DEF and the webhook modules, so a new route or event filter is checked without
 * touching this file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as sns from 'aws-cdk-lib/aws-sns';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FORWARDED_HOST_HEADER, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/edge-headers';
import { GATEWAY_ERRORS } from '../../lib/gateway-responses';
import { API_PREFIX, routes, type Route } from '../../lib/routes';
import { API_CSP, API_SECURITY_HEADERS, CONSOLE_CSP, CONSOLE_SECURITY_HEADERS, HSTS_MAX_AGE_SECONDS } from '../../lib/security-headers';
import { keys, TABLE_DEF, WEBHOOK_PARTITION_SUFFIX } from '../../lib/store/table';
import { DEFAULT_RETRY_SCHEDULE_S, DELIVERY_BATCH_SIZE, MAX_RETRY_AFTER_S, maxAttempts, retryDelayS } from '../../lib/webhooks/config';
import { STREAM_FILTER_PATTERNS } from '../../lib/webhooks/events';
import { API_PATH_PATTERN, HASHED_ASSETS_PREFIX, SPA_REWRITE_CODE } from '../../infra/console-site';
import { STUCK_REINDEX_MODULE } from '../../infra/stuck-reindex';
import {
  API_INTEGRATION_TIMEOUT_S,
  AUTHORIZER_WRITABLE,
  DEFAULT_ROUTE_TIMEOUT_S,
  DELIVERY_ATTEMPTS,
  DELIVERY_BATCHING_WINDOW,
  DELIVERY_MODULE,
  DELIVERY_TIMEOUT,
  FANOUT_MODULE,
  PROJECT_ROOT,
  SESSION_AUTHORIZER_MODULE,
  STREAM_FAILURE_MAX_RECEIVES,
  TABLE_ACTIONS,
  TOKEN_AUTHORIZER_MODULE,
  TalentPipelineStack,
  UNTRACED_MODULES,
  type TalentPipelineStackProps,
} from '../../infra/stack';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
interface CfnResource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string[];
}

const ROUTES: readonly Route[] = routes;
const label = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;
const PUBLIC_ROUTES = ROUTES.filter((r) => r.auth === 'none');
const SESSION_ROUTES = ROUTES.filter((r) => r.auth === 'session');
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'];
/** What lib/store reads with: GetCommand and QueryCommand (queryAll), nothing else. */
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query'];
/** What a write route may do besides reading; ConditionCheckItem for users.ts createUser's transaction. */
const ROUTE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'];
/** Never granted to any function: bulk writes and table-wide reads or changes. */
const FORBIDDEN_ACTIONS = ['dynamodb:BatchWriteItem', 'dynamodb:Scan', 'dynamodb:DeleteTable', 'dynamodb:UpdateTable', 'dynamodb:*', '*'];
/** Granted by CDK's grantReadData but called by no function (infra/local's DescribeTable runs outside Lambda). */
const UNUSED_ACTIONS = ['dynamodb:BatchGetItem', 'dynamodb:DescribeTable', 'dynamodb:TransactGetItems'];
/** `list-candidates` -> `ListCandidates`, the construct id prefix of a module's function. */
const pascal = (module: string) => module.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
/** Functions that serve no route: the stream fan-out and the queue consumer. */
// The webhook pipeline and the stuck index's re-index: functions behind no route.
const PIPELINE_MODULES = [FANOUT_MODULE, DELIVERY_MODULE, STUCK_REINDEX_MODULE];
/** Set only for local runs (`npm start`, tests); a deployed function must never see them. */
const LOCAL_ONLY_ENV = ['WEBHOOK_ALLOW_LOOPBACK', 'SQS_ENDPOINT', 'DYNAMODB_ENDPOINT', 'WEBHOOK_RETRY_SCHEDULE'];

/** A built console stand-in: the page, a hashed asset and a root file, as Vite lays them out. */
const CONSOLE_DIR = mkdtempSync(path.join(tmpdir(), 'stack-test-console-'));
mkdirSync(path.join(CONSOLE_DIR, 'assets'));
writeFileSync(path.join(CONSOLE_DIR, 'index.html'), '<!doctype html><title>Talent Pipeline</title><script type="module" src="/assets/index-abc123.js"></script>');
writeFileSync(path.join(CONSOLE_DIR, 'assets', 'index-abc123.js'), 'console.log(1);');
writeFileSync(path.join(CONSOLE_DIR, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

let template: Template;
let resources: Record<string, CfnResource>;
let assemblyDir: string;
/** Asset S3 object key -> bundle directory inside the cloud assembly. */
let assetDirByKey: Map<string, string>;

beforeAll(() => {
  const started = performance.now();
  const app = new App({ outdir: mkdtempSync(path.join(tmpdir(), 'stack-test-')) });
  const stack = new TalentPipelineStack(app, 'TalentPipeline', { consoleDir: CONSOLE_DIR });
  const assembly = app.synth();
  assemblyDir = assembly.directory;
  template = Template.fromJSON(assembly.getStackArtifact(stack.artifactId).template);
  resources = template.toJSON().Resources;

  const manifest = JSON.parse(readFileSync(path.join(assemblyDir, `${stack.artifactId}.assets.json`), 'utf8'));
  assetDirByKey = new Map();
  for (const file of Object.values<Json>(manifest.files)) {
    for (const dest of Object.values<Json>(file.destinations)) {
      assetDirByKey.set(dest.objectKey, path.join(assemblyDir, file.source.path));
    }
  }
  console.info(`synth with bundling took ${Math.round(performance.now() - started)} ms`);
  // One esbuild bundle per function (40 now): on two shared cores under load this took 131 s.
}, 300_000);

afterAll(() => {
  if (assemblyDir) rmSync(assemblyDir, { recursive: true, force: true });
  rmSync(CONSOLE_DIR, { recursive: true, force: true });
});

// ---------- template navigation ----------

const ofType = (type: string, res = resources) => Object.entries(res).filter(([, r]) => r.Type === type);

/** The function CDK's BucketDeployment runs (a Python singleton that uploads the console). */
const deploymentHandlerIds = (res = resources): string[] => [
  ...new Set(ofType('Custom::CDKBucketDeployment', res).flatMap(([, d]) => getAtts(d.Properties.ServiceToken))),
];
/** The project's own functions: every Lambda function but the BucketDeployment handler. */
const appFunctions = (res = resources) => {
  const deployment = deploymentHandlerIds(res);
  return ofType('AWS::Lambda::Function', res).filter(([id]) => !deployment.includes(id));
};

/** Logical ids named by `Fn::GetAtt` anywhere inside a value. */
function getAtts(value: Json): string[] {
  if (Array.isArray(value)) return value.flatMap(getAtts);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (k === 'Fn::GetAtt' ? [(v as string[])[0]!] : getAtts(v)));
  }
  return [];
}

/** The one Lambda function a value (an integration or authorizer URI) points at. */
function functionIn(value: Json): string {
  const fns = [...new Set(getAtts(value))].filter((id) => resources[id]?.Type === 'AWS::Lambda::Function');
  expect(fns).toHaveLength(1);
  return fns[0]!;
}

/** Full path of an AWS::ApiGateway::Resource, rebuilt from PathPart and ParentId. */
function resourcePath(id: string, res = resources): string {
  const { ParentId: parent, PathPart } = res[id]!.Properties;
  const prefix = parent.Ref ? resourcePath(parent.Ref, res) : ''; // Fn::GetAtt RootResourceId = root
  return `${prefix}/${PathPart}`;
}

/** Every method of the API keyed `METHOD /path`. */
function methods(res = resources): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const [, m] of ofType('AWS::ApiGateway::Method', res)) {
    out.set(`${m.Properties.HttpMethod} ${resourcePath(m.Properties.ResourceId.Ref, res)}`, m.Properties);
  }
  return out;
}

function methodFor(route: Pick<Route, 'method' | 'path'>): Json {
  const m = methods().get(`${route.method} ${route.path}`);
  expect(m, `no method for ${route.method} ${route.path}`).toBeDefined();
  return m;
}

function roleOf(fnId: string): string {
  const role = getAtts(resources[fnId]!.Properties.Role);
  expect(role).toHaveLength(1);
  return role[0]!;
}

/** Every statement of every policy attached to a function's role. */
function allStatementsOf(fnId: string): Json[] {
  const role = roleOf(fnId);
  expect(resources[role]!.Properties.Policies).toBeUndefined();
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === role))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
}

/** A statement every function has: writing its own logs, or X-Ray traces (test/unit/observability.test.ts pins them). */
const isLogsOrTraces = (st: Json) => [st.Action].flat().every((a: string) => /^(logs|xray):/.test(a));

/** What a function may do to data: every statement but its logs and traces. */
const statementsOf = (fnId: string): Json[] => allStatementsOf(fnId).filter((st) => !isLogsOrTraces(st));

const actionsOf = (fnId: string): string[] =>
  statementsOf(fnId).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
/** The distinct DynamoDB actions of a function, sorted. */
const dynamoActionsOf = (fnId: string): string[] => [...new Set(actionsOf(fnId).filter((a) => a.startsWith('dynamodb:')))].sort();
const dynamoStatements = (fnId: string) => statementsOf(fnId).filter((st) => [st.Action].flat().some((a: string) => a.startsWith('dynamodb:')));

const tableId = () => {
  const tables = ofType('AWS::DynamoDB::Table');
  expect(tables).toHaveLength(1);
  return tables[0]![0];
};

const authorizerOfType = (type: 'TOKEN' | 'REQUEST', res = resources) => {
  const found = ofType('AWS::ApiGateway::Authorizer', res).filter(([, a]) => a.Properties.Type === type);
  expect(found, type).toHaveLength(1);
  return found[0]![0];
};
const tokenAuthorizerId = () => authorizerOfType('TOKEN');
const sessionAuthorizerId = () => authorizerOfType('REQUEST');

const routeFunctionIds = () => [...new Set(ROUTES.map((r) => functionIn(methodFor(r).Integration.Uri)))];
const authorizerFunctionId = () => functionIn(resources[tokenAuthorizerId()]!.Properties.AuthorizerUri);
const sessionAuthorizerFunctionId = () => functionIn(resources[sessionAuthorizerId()]!.Properties.AuthorizerUri);
const authorizerFunctionIds = () => [authorizerFunctionId(), ...(SESSION_ROUTES.length ? [sessionAuthorizerFunctionId()] : [])];
/** Authorizer functions besides the route handlers: the TOKEN one, and the session one when a route needs it. */
const authorizerCount = (table: readonly Route[] = ROUTES) => 1 + (table.some((r) => r.auth === 'session') ? 1 : 0);
/** Functions besides the route handlers: the authorizers and the webhook pipeline. */
const extraFunctionCount = (table: readonly Route[] = ROUTES) => authorizerCount(table) + PIPELINE_MODULES.length;

/** The one function built from a module (construct id `<Pascal>Fn...`). */
function functionOf(module: string, res = resources): string {
  const found = appFunctions(res).filter(([id]) => id.startsWith(`${pascal(module)}Fn`));
  expect(found, module).toHaveLength(1);
  return found[0]![0];
}

/** The one event source mapping that invokes a function. */
function mappingOf(fnId: string): Json {
  const found = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.FunctionName?.Ref === fnId);
  expect(found, fnId).toHaveLength(1);
  return found[0]![1].Properties;
}

/** The resource a single `Fn::GetAtt` inside a value names, checked for its type. */
function oneGetAtt(value: Json, type: string): string {
  const ids = [...new Set(getAtts(value))];
  expect(ids).toHaveLength(1);
  expect(resources[ids[0]!]!.Type).toBe(type);
  return ids[0]!;
}

/** The webhook queues, found by their roles in the template rather than by name. */
const deliveryQueueId = () => oneGetAtt(mappingOf(functionOf(DELIVERY_MODULE)).EventSourceArn, 'AWS::SQS::Queue');
const deliveryDlqId = () => oneGetAtt(resources[deliveryQueueId()]!.Properties.RedrivePolicy.deadLetterTargetArn, 'AWS::SQS::Queue');
const streamFailureQueueId = () =>
  oneGetAtt(mappingOf(functionOf(FANOUT_MODULE)).DestinationConfig.OnFailure.Destination, 'AWS::SQS::Queue');
const streamFailureDlqId = () => oneGetAtt(resources[streamFailureQueueId()]!.Properties.RedrivePolicy.deadLetterTargetArn, 'AWS::SQS::Queue');

/** Statements of a function that name a given resource. */
const statementsOn = (fnId: string, targetId: string) => statementsOf(fnId).filter((s) => getAtts(s.Resource).includes(targetId));
const actionsOn = (fnId: string, targetId: string) => statementsOn(fnId, targetId).flatMap((s) => [s.Action].flat() as string[]);

/** IAM `StringLike` as a RegExp: `*` matches any run of characters (our patterns use no `?`). */
const iamLike = (pattern: string) => {
  expect(pattern).not.toContain('?');
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${pattern.split('*').map(literal).join('.*')}$`);
};

/** Every item key lib/store/table.ts builds, for one tenant and ids, by builder name. */
const builtKeys = () =>
  Object.entries(keys)
    .filter(([, build]) => typeof build === 'function')
    .map(([name, build]) => [name, (build as (...a: string[]) => unknown)('tenant-1', 'id-2', 'id-3')] as const)
    .filter((entry): entry is readonly [string, { PK: string; SK: string }] => typeof (entry[1] as Json)?.PK === 'string');
/** Names of the key builders whose partition key a LeadingKeys pattern admits. */
const admittedBy = (pattern: string) => builtKeys().filter(([, key]) => iamLike(pattern).test(key.PK)).map(([name]) => name).sort();

// ---------- tests ----------

describe('table', () => {
  it('is derived from TABLE_DEF: keys, string attributes, both GSIs with projection ALL', () => {
    const { Properties: p } = resources[tableId()]!;
    expect(p.KeySchema).toEqual([
      { AttributeName: TABLE_DEF.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_DEF.sortKey, KeyType: 'RANGE' },
    ]);
    const indexes = Object.values(TABLE_DEF.indexes);
    expect(indexes.map((i) => i.name).sort()).toEqual(['GSI1', 'GSI2', 'GSI3', 'GSI4']);
    expect(p.GlobalSecondaryIndexes).toHaveLength(indexes.length);
    for (const index of indexes) {
      expect(p.GlobalSecondaryIndexes).toContainEqual({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      });
    }
    const keyNames = [TABLE_DEF.partitionKey, TABLE_DEF.sortKey, ...indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
    expect(p.AttributeDefinitions).toHaveLength(keyNames.length);
    for (const name of keyNames) expect(p.AttributeDefinitions).toContainEqual({ AttributeName: name, AttributeType: 'S' });
  });

  it('streams NEW_AND_OLD_IMAGES, has PITR, TTL, on-demand billing and survives stack deletion', () => {
    const table = resources[tableId()]!;
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: TABLE_DEF.ttlAttribute, Enabled: true });
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
  });
});

describe('functions', () => {
  it('one function per handler module plus the authorizers (TOKEN, and REQUEST for the session routes)', () => {
    const handlers = new Set(ROUTES.map((r) => r.handler));
    expect(SESSION_ROUTES.length).toBeGreaterThan(0);
    expect(authorizerCount()).toBe(2);
    expect(appFunctions()).toHaveLength(handlers.size + extraFunctionCount());
    // Besides them only the console's BucketDeployment handler, which is CDK's own.
    template.resourceCountIs('AWS::Lambda::Function', handlers.size + extraFunctionCount() + 1);
    const all = new Set([...routeFunctionIds(), ...authorizerFunctionIds(), ...PIPELINE_MODULES.map((m) => functionOf(m))]);
    expect(all.size).toBe(handlers.size + extraFunctionCount());
  });

  it('all run nodejs24.x on arm64 with the table name, Powertools settings and no source maps', () => {
    const table = tableId();
    const fns = appFunctions();
    expect(fns.length).toBeGreaterThan(1);
    for (const [id, { Properties: p }] of fns) {
      expect(p.Runtime, id).toBe('nodejs24.x');
      expect(p.Architectures, id).toEqual(['arm64']);
      expect(p.MemorySize, id).toBe(512);
      expect(p.Handler, id).toBe('index.handler');
      const env = p.Environment.Variables;
      expect(env.TABLE_NAME, id).toEqual({ Ref: table });
      expect(env.POWERTOOLS_SERVICE_NAME, id).toBe('talent-pipeline-prod');
      expect(env.POWERTOOLS_LOG_LEVEL, id).toBe('INFO');
      expect(env.NODE_OPTIONS ?? '', id).not.toMatch(/enable-source-maps/);
    }
  });

  it('route functions time out after 10 s unless their route sets timeoutSeconds, the authorizers sooner', () => {
    expect(DEFAULT_ROUTE_TIMEOUT_S).toBe(10);
    for (const r of ROUTES) {
      const id = functionIn(methodFor(r).Integration.Uri);
      const longest = Math.max(...ROUTES.filter((x) => x.handler === r.handler).map((x) => x.timeoutSeconds ?? DEFAULT_ROUTE_TIMEOUT_S));
      expect(resources[id]!.Properties.Timeout, label(r)).toBe(longest);
      // API Gateway ends the request at 29 s; the function must end it first.
      expect(resources[id]!.Properties.Timeout, label(r)).toBeLessThan(API_INTEGRATION_TIMEOUT_S);
    }
    for (const id of authorizerFunctionIds()) expect(resources[id]!.Properties.Timeout, id).toBeLessThan(DEFAULT_ROUTE_TIMEOUT_S);
  });

  it('test-webhook waits for a receiver (up to 15 s) and so gets 20 s', () => {
    const testRoutes = ROUTES.filter((r) => r.handler === 'test-webhook');
    expect(testRoutes.map((r) => r.timeoutSeconds)).toEqual([20]);
    expect(resources[functionIn(methodFor(testRoutes[0]!).Integration.Uri)]!.Properties.Timeout).toBe(20);
  });

  it('no function is configured for local use: no loopback receivers, local endpoints or test schedules', () => {
    for (const [id, { Properties: p }] of appFunctions()) {
      for (const name of LOCAL_ONLY_ENV) expect(Object.keys(p.Environment.Variables), id).not.toContain(name);
    }
    // So the deployed delivery function runs the default schedule, the one the redrive is sized for.
    expect(DELIVERY_ATTEMPTS).toBe(DEFAULT_RETRY_SCHEDULE_S.length + 1);
  });

  it('each function logs to its own log group with a retention', () => {
    const groups = new Set<string>();
    for (const [id, { Properties: p }] of appFunctions()) {
      const group = p.LoggingConfig?.LogGroup?.Ref;
      expect(group, id).toBeDefined();
      expect(resources[group]!.Type).toBe('AWS::Logs::LogGroup');
      expect(resources[group]!.Properties.RetentionInDays, id).toBe(30);
      groups.add(group);
    }
    expect(groups.size).toBe(appFunctions().length);
  });
});

describe('bundles', () => {
  const bundleDir = (fnId: string) => {
    const dir = assetDirByKey.get(resources[fnId]!.Properties.Code.S3Key);
    expect(dir, `no bundle for ${fnId}`).toBeDefined();
    return dir!;
  };

  it('are minified ESM with the createRequire banner, the AWS SDK inside (where the table is used) and no source map', () => {
    const fns = appFunctions();
    expect(fns.length).toBeGreaterThan(1);
    let withoutTable = 0;
    for (const [id] of fns) {
      const dir = bundleDir(id);
      expect(readdirSync(dir), id).toEqual(['index.mjs']);
      const code = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
      expect(code.startsWith("import { createRequire } from 'module'; const require = createRequire(import.meta.url);"), id).toBe(true);
      expect(code, id).not.toMatch(/sourceMappingURL/);
      // Bundled: no import of the SDK is left for the runtime to resolve.
      expect(code, id).not.toMatch(/from\s*["']@(aws-sdk|smithy)\//);
      // A function granted table access bundles the SDK client; one without (the OpenAPI
      // document) does not even carry it.
      if (actionsOf(id).some((a) => a.startsWith('dynamodb:'))) expect(code, id).toMatch(/DynamoDBClient/);
      else {
        withoutTable++;
        expect(code, id).not.toMatch(/DynamoDBClient/);
      }
      // Minified: unminified esbuild output averages well under 100 characters a line.
      expect(code.length / code.split('\n').length, id).toBeGreaterThan(1000);
    }
    expect(withoutTable).toBe(new Set(ROUTES.filter((r) => r.access === 'none').map((r) => r.handler)).size);
  });

  it('of API functions and authorizers are at most 400 KB, traced with the trimmed X-Ray entry unless in UNTRACED_MODULES', () => {
    const modules = [TOKEN_AUTHORIZER_MODULE, SESSION_AUTHORIZER_MODULE, ...new Set(ROUTES.map((r) => r.handler))];
    let traced = 0;
    for (const module of modules) {
      const matches = appFunctions().filter(([id]) => id.startsWith(`${pascal(module)}Fn`));
      expect(matches, module).toHaveLength(1);
      const [id] = matches[0]!;
      const code = readFileSync(path.join(bundleDir(id), 'index.mjs'), 'utf8');
      // Issue 11's budget, on the bundle exactly as it deploys (bytes, 1 KB = 1024).
      expect(Buffer.byteLength(code), module).toBeLessThanOrEqual(400 * 1024);
      // The SDK name the X-Ray entry (ours or the SDK's) stamps on every segment.
      const carriesXRay = code.includes('X-Ray for Node.js');
      const usesTable = actionsOf(id).some((a) => a.startsWith('dynamodb:'));
      expect(carriesXRay, module).toBe(usesTable && !UNTRACED_MODULES.has(module));
      if (!carriesXRay) continue;
      traced++;
      // lib/aws/xray-sdk-core.ts (its error names it), not the SDK's entry with its EC2/Beanstalk plugins.
      expect(code, module).toContain('lib/aws/xray-sdk-core.ts');
      expect(code, module).not.toMatch(/AWS::ElasticBeanstalk/);
    }
    // Every one that uses the table (both authorizers, every route but the OpenAPI document's), but the untraced.
    const withTable = modules.filter((m) => ROUTES.find((r) => r.handler === m)?.access !== 'none');
    expect(traced).toBe(withTable.length - UNTRACED_MODULES.size);
  });

  it('load under Node with their own environment and export a handler (no "Dynamic require" failures)', () => {
    for (const [id, { Properties: p }] of appFunctions()) {
      // The variables the template gives the function, with a stand-in for each resolved reference:
      // a module that reads a variable the stack forgot fails its cold start here.
      const own = Object.fromEntries(
        Object.entries<Json>(p.Environment.Variables).map(([k, v]) => [k, typeof v === 'string' ? v : `stack-test-${k}`]),
      );
      const inherited = Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('WEBHOOK_') && k !== 'TABLE_NAME' && !LOCAL_ONLY_ENV.includes(k)),
      );
      const out = execFileSync(
        process.execPath,
        ['--input-type=module', '-e', "const m = await import('./index.mjs'); process.stdout.write(typeof m.handler);"],
        { cwd: bundleDir(id), env: { ...inherited, ...own, AWS_REGION: 'us-east-1' }, stdio: ['ignore', 'pipe', 'ignore'] },
      ).toString();
      expect(out, id).toBe('function');
    }
  }, 60_000);
});

describe('API routes', () => {
  it('has exactly the methods of the route table, nothing else', () => {
    expect([...methods().keys()].sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('every route is a Lambda proxy integration of its own handler module', () => {
    for (const r of ROUTES) {
      const m = methodFor(r);
      expect(m.Integration.Type).toBe('AWS_PROXY');
      const fn = functionIn(m.Integration.Uri);
      // Construct ids come from the handler module name (list-candidates -> ListCandidates).
      const pascal = r.handler.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
      expect(fn.startsWith(`${pascal}Fn`), `${r.method} ${r.path} -> ${fn}`).toBe(true);
    }
  });

  it('token routes use the TOKEN authorizer on the Authorization header with a 60 s cache', () => {
    const authorizer = resources[tokenAuthorizerId()]!.Properties;
    expect(authorizer.IdentitySource).toBe('method.request.header.Authorization');
    expect(authorizer.AuthorizerResultTtlInSeconds).toBe(60);
    const tokenRoutes = ROUTES.filter((r) => r.auth === 'token');
    expect(tokenRoutes.length).toBeGreaterThan(0);
    for (const r of tokenRoutes) {
      const m = methodFor(r);
      expect(m.AuthorizationType, `${r.method} ${r.path}`).toBe('CUSTOM');
      expect(m.AuthorizerId, `${r.method} ${r.path}`).toEqual({ Ref: tokenAuthorizerId() });
    }
  });

  it('session routes use the REQUEST authorizer on the Cookie header, never cached', () => {
    const id = sessionAuthorizerId();
    expect(id.startsWith('SessionRequestAuthorizer'), id).toBe(true);
    const authorizer = resources[id]!.Properties;
    expect(authorizer.Type).toBe('REQUEST');
    expect(authorizer.IdentitySource).toBe('method.request.header.Cookie');
    // Logout and the idle/absolute expiry act on the very next request.
    expect(authorizer.AuthorizerResultTtlInSeconds).toBe(0);
    expect(SESSION_ROUTES.length).toBeGreaterThan(0);
    for (const r of SESSION_ROUTES) {
      const m = methodFor(r);
      expect(m.AuthorizationType, label(r)).toBe('CUSTOM');
      expect(m.AuthorizerId, label(r)).toEqual({ Ref: id });
    }
  });

  it('only the public routes are open: AuthorizationType NONE exactly for the auth none routes', () => {
    expect(PUBLIC_ROUTES.map(label).sort()).toEqual(['GET /api/v1/openapi.json', 'POST /api/session']);
    const open: string[] = [];
    for (const [key, m] of methods()) {
      if (m.AuthorizationType === 'NONE') {
        open.push(key);
        expect(m.AuthorizerId, key).toBeUndefined();
      } else {
        expect(m.AuthorizationType, key).toBe('CUSTOM');
        expect(m.AuthorizerId, key).toBeDefined();
      }
    }
    expect(open.sort()).toEqual(PUBLIC_ROUTES.map(label).sort());
  });

  it('each guarded method uses the authorizer of its auth kind', () => {
    const expected = { token: { Ref: tokenAuthorizerId() }, session: { Ref: sessionAuthorizerId() } } as const;
    for (const r of ROUTES.filter((x) => x.auth !== 'none')) {
      expect(methodFor(r).AuthorizerId, label(r)).toEqual(expected[r.auth as 'token' | 'session']);
    }
  });

  it('the authorizers are the functions/authorizer and functions/session-authorizer modules', () => {
    expect(authorizerFunctionId().startsWith(`${pascal(TOKEN_AUTHORIZER_MODULE)}Fn`)).toBe(true);
    expect(sessionAuthorizerFunctionId().startsWith(`${pascal(SESSION_AUTHORIZER_MODULE)}Fn`)).toBe(true);
    expect(existsSync(path.join(PROJECT_ROOT, 'functions', `${SESSION_AUTHORIZER_MODULE}.ts`))).toBe(true);
  });
});

describe('least privilege', () => {
  it('read routes may GetItem and Query (table and indexes), nothing else', () => {
    expect(TABLE_ACTIONS.read).toEqual(READ_ACTIONS);
    const readRoutes = ROUTES.filter((r) => r.access === 'read');
    expect(readRoutes.length).toBeGreaterThan(0);
    for (const r of readRoutes) {
      const fn = functionIn(methodFor(r).Integration.Uri);
      const actions = actionsOf(fn);
      expect(dynamoActionsOf(fn), label(r)).toEqual([...READ_ACTIONS].sort());
      for (const a of WRITE_ACTIONS) expect(actions, label(r)).not.toContain(a);
      expect(actions.some((a) => a === '*' || a === 'dynamodb:*'), label(r)).toBe(false);
      // Query needs the indexes (stage and requisition listings), so this grant does name them.
      const resourcesOf = dynamoStatements(fn).flatMap((st) => [st.Resource].flat());
      expect(resourcesOf, label(r)).toContainEqual({ 'Fn::GetAtt': [tableId(), 'Arn'] });
      expect(JSON.stringify(resourcesOf), label(r)).toContain('/index/*');
    }
  });

  it('write routes add Put, Update, Delete and ConditionCheck, never BatchWriteItem or Scan', () => {
    expect(TABLE_ACTIONS.write).toEqual([...READ_ACTIONS, ...ROUTE_WRITE_ACTIONS]);
    const writeRoutes = ROUTES.filter((r) => r.access === 'write');
    expect(writeRoutes.length).toBeGreaterThan(0);
    for (const a of FORBIDDEN_ACTIONS) expect(TABLE_ACTIONS.write).not.toContain(a);
    for (const r of writeRoutes) {
      const fn = functionIn(methodFor(r).Integration.Uri);
      expect(dynamoActionsOf(fn), label(r)).toEqual([...READ_ACTIONS, ...ROUTE_WRITE_ACTIONS].sort());
      const actions = actionsOf(fn);
      for (const a of FORBIDDEN_ACTIONS) expect(actions, label(r)).not.toContain(a);
      // Routes that queue deliveries also hold SQS rights, pinned by the next test; the token
      // routes' API Gateway rights (API keys) are pinned by test/unit/rate-limits.test.ts.
      for (const a of actions.filter((x) => !x.startsWith('sqs:') && !x.startsWith('apigateway:'))) expect(TABLE_ACTIONS.write, `${label(r)}: ${a}`).toContain(a);
    }
  });

  it('only routes marked `queue` (resend, replay) may send, and only to the delivery queue', () => {
    const queueRoutes = ROUTES.filter((r) => 'queue' in r && r.queue);
    expect(queueRoutes.map(label).sort()).toEqual(['POST /api/webhooks/{id}/replay', 'POST /api/webhooks/{id}/resend']);
    for (const r of ROUTES) {
      const fn = functionIn(methodFor(r).Integration.Uri);
      const sqsActions = actionsOf(fn).filter((a) => a.startsWith('sqs:'));
      if (!queueRoutes.includes(r)) {
        expect(sqsActions, label(r)).toEqual([]);
        continue;
      }
      expect(actionsOn(fn, deliveryQueueId()), label(r)).toContain('sqs:SendMessage');
      for (const a of sqsActions) expect(['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'], label(r)).toContain(a);
      expect(actionsOn(fn, deliveryDlqId()), label(r)).toEqual([]);
    }
  });

  it('routes without table access (the OpenAPI document) get no DynamoDB permission at all', () => {
    const noneRoutes = ROUTES.filter((r) => r.access === 'none');
    expect(noneRoutes.map(label)).toEqual(['GET /api/v1/openapi.json']);
    const table = tableId();
    for (const r of noneRoutes) {
      const fn = functionIn(methodFor(r).Integration.Uri);
      expect(actionsOf(fn).filter((a) => a.startsWith('dynamodb:') || a === '*'), label(r)).toEqual([]);
      for (const st of statementsOf(fn)) expect(getAtts(st), label(r)).not.toContain(table);
    }
  });

  it('no function may Scan the table, and none is granted BatchGetItem or DescribeTable, which nothing calls', () => {
    const fns = appFunctions();
    expect(fns.length).toBeGreaterThan(1);
    for (const [id] of fns) {
      const actions = actionsOf(id);
      for (const a of ['dynamodb:Scan', ...UNUSED_ACTIONS]) expect(actions, id).not.toContain(a);
    }
  });

  /** Each authorizer's grants: the partitions it reads, and those whose usage timestamp it sets. */
  const authorizerGrants = () => [
    // findTokenGrant: GetItem on keys.token(digest); touchToken: UpdateItem on keys.tenantToken.
    { fn: authorizerFunctionId(), get: ['TOKEN#*'], update: ['T#*'] },
    // getSession and touchSession: keys.session(digest).
    { fn: sessionAuthorizerFunctionId(), get: ['SESSION#*'], update: ['SESSION#*'] },
  ];

  it('the authorizers may only GetItem and UpdateItem, on the table itself, each within its own partitions', () => {
    // The usage timestamps, and the key attributes IAM needs listed along with them.
    expect([...AUTHORIZER_WRITABLE].sort()).toEqual(['PK', 'SK', 'last_seen_at', 'last_used_at']);
    const grants = authorizerGrants();
    expect(new Set(grants.map((g) => g.fn)).size).toBe(2);
    for (const { fn, get, update } of grants) {
      // No Query, BatchGetItem, DescribeTable, ConditionCheckItem, Put or Delete; no SQS either.
      expect([...new Set(actionsOf(fn))].sort(), fn).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
      const statements = statementsOf(fn);
      expect(statements, fn).toHaveLength(2);
      for (const st of statements) {
        expect(st.Effect, fn).toBe('Allow');
        // The table only: a single ARN, no index (GSI keys are not the partition key IAM checks).
        expect(st.Resource, fn).toEqual({ 'Fn::GetAtt': [tableId(), 'Arn'] });
        expect(Object.keys(st.Condition['ForAllValues:StringLike']), fn).toEqual(['dynamodb:LeadingKeys']);
      }
      const [read] = statements.filter((st) => [st.Action].flat().includes('dynamodb:GetItem'));
      expect([read.Action].flat(), fn).toEqual(['dynamodb:GetItem']);
      expect(read.Condition, fn).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': get } });
      const [write] = statements.filter((st) => [st.Action].flat().includes('dynamodb:UpdateItem'));
      expect([write.Action].flat(), fn).toEqual(['dynamodb:UpdateItem']);
      expect(write.Condition, fn).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': update },
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': AUTHORIZER_WRITABLE },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
      });
    }
  });

  it('the authorizer conditions admit the keys their store calls use, and no other global item', () => {
    const digest = 'a'.repeat(64); // a sha256 in hex
    const like = (pattern: string) => iamLike(pattern);
    const [token, session] = authorizerGrants();
    // Token lookups only; sessions, slugs, emails and login counters stay out of reach.
    expect(token!.get.flatMap(admittedBy)).toEqual(['token']);
    expect(like(token!.get[0]!).test(keys.token(digest).PK)).toBe(true);
    // The listing item touchToken updates lives in the tenant partition; so does every other
    // tenant record, which the dynamodb:Attributes condition keeps to the usage timestamps.
    const inTenant = builtKeys().filter(([, key]) => key.PK.startsWith(keys.tenantPartition('tenant-1'))).map(([name]) => name).sort();
    expect(inTenant).toContain('tenantToken');
    expect(token!.update.flatMap(admittedBy)).toEqual(inTenant);
    for (const name of ['token', 'session', 'slug', 'email', 'loginFailures']) expect(token!.update.flatMap(admittedBy)).not.toContain(name);
    // Sessions only, both to read and to slide.
    expect(session!.get.flatMap(admittedBy)).toEqual(['session']);
    expect(session!.update.flatMap(admittedBy)).toEqual(['session']);
    expect(like(session!.get[0]!).test(keys.session(digest).PK)).toBe(true);
    expect(like(session!.get[0]!).test(keys.token(digest).PK)).toBe(false);
  });

  it('function policies name only the table, its indexes and stream, and the webhook queues; "*" only for ListStreams', () => {
    const table = tableId();
    const queues = ofType('AWS::SQS::Queue').map(([qid]) => qid);
    expect(queues.sort()).toEqual([deliveryQueueId(), deliveryDlqId(), streamFailureQueueId(), streamFailureDlqId()].sort());
    for (const [id] of appFunctions()) {
      for (const s of statementsOf(id)) {
        const actions: string[] = [s.Action].flat();
        const targets = [s.Resource].flat();
        if (targets.includes('*')) {
          // ListStreams has no resource-level permission; the stream event source needs it.
          expect(targets, id).toEqual(['*']);
          expect(actions, id).toEqual(['dynamodb:ListStreams']);
          expect([functionOf(FANOUT_MODULE), functionOf(STUCK_REINDEX_MODULE)], 'only the fan-out and the stuck re-index read the stream').toContain(id);
          continue;
        }
        // The token functions' API keys in the usage plan: pinned by test/unit/rate-limits.test.ts.
        if (actions.every((a) => a.startsWith('apigateway:'))) continue;
        for (const a of actions) expect(a, id).toMatch(/^(dynamodb|sqs):/);
        for (const t of targets) {
          const [target] = getAtts(t);
          expect(getAtts(t), id).toHaveLength(1);
          if (actions.every((a) => a.startsWith('dynamodb:'))) expect(target, id).toBe(table);
          else expect(queues, `${id}: ${target}`).toContain(target);
        }
      }
      expect(resources[roleOf(id)]!.Properties.ManagedPolicyArns, id).toBeUndefined();
    }
  });
});

describe('webhook pipeline', () => {
  const fanoutId = () => functionOf(FANOUT_MODULE);
  const deliveryId = () => functionOf(DELIVERY_MODULE);
  const queue = (id: string) => resources[id]!.Properties;

  it('fan-out reads the table stream from LATEST in batches of 100, only the event filter patterns', () => {
    const m = mappingOf(fanoutId());
    expect(m.EventSourceArn).toEqual({ 'Fn::GetAtt': [tableId(), 'StreamArn'] });
    expect(m.StartingPosition).toBe('LATEST');
    expect(m.BatchSize).toBe(100);
    const patterns = m.FilterCriteria.Filters.map((f: Json) => JSON.parse(f.Pattern));
    expect(patterns).toEqual(STREAM_FILTER_PATTERNS);
    // Lambda matches a filter value only inside an array; a bare string would never match.
    const leaves = (v: Json): Json[] => (Array.isArray(v) ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(leaves) : [v]);
    for (const p of patterns) for (const leaf of leaves(p)) expect(Array.isArray(leaf), JSON.stringify(p)).toBe(true);
  });

  it('fan-out isolates and retries failing records, then sends the batch to its own failure queue', () => {
    const m = mappingOf(fanoutId());
    expect(m.BisectBatchOnFunctionError).toBe(true);
    expect(m.MaximumRetryAttempts).toBe(5);
    expect(m.MaximumRecordAgeInSeconds).toBe(86_400);
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    const failures = streamFailureQueueId();
    expect(failures).not.toBe(deliveryQueueId());
    expect(failures).not.toBe(deliveryDlqId());
    // Lambda sends to the destination with the function's role.
    expect(actionsOn(fanoutId(), failures)).toContain('sqs:SendMessage');
  });

  it('delivery consumes the delivery queue DELIVERY_BATCH_SIZE at a time (as npm start does) and reports failures per message', () => {
    const m = mappingOf(deliveryId());
    expect(m.BatchSize).toBe(DELIVERY_BATCH_SIZE);
    // Lambda refuses batches over 10 without a batching window of at least 1 s.
    if (DELIVERY_BATCH_SIZE > 10) expect(m.MaximumBatchingWindowInSeconds).toBeGreaterThanOrEqual(1);
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(m.MaximumBatchingWindowInSeconds ?? 0).toBe(DELIVERY_BATCHING_WINDOW.toSeconds());
    expect(m.FilterCriteria).toBeUndefined();
    expect(resources[deliveryId()]!.Properties.Timeout).toBe(DELIVERY_TIMEOUT.toSeconds());
    // A batch is sent in parallel, each attempt up to 15 s (WEBHOOK_TIMEOUT_MS's ceiling).
    expect(DELIVERY_TIMEOUT.toSeconds()).toBeGreaterThan(15);
  });

  it('every queue is encrypted and refuses requests without TLS', () => {
    const queues = ofType('AWS::SQS::Queue');
    expect(queues).toHaveLength(4);
    for (const [id, { Properties: p }] of queues) {
      expect(p.SqsManagedSseEnabled === true || p.KmsMasterKeyId !== undefined, id).toBe(true);
      const policies = ofType('AWS::SQS::QueuePolicy').filter(([, qp]) => qp.Properties.Queues.some((q: Json) => q.Ref === id));
      const denials = policies
        .flatMap(([, qp]) => qp.Properties.PolicyDocument.Statement)
        .filter((st: Json) => st.Effect === 'Deny' && st.Condition?.Bool?.['aws:SecureTransport'] === 'false');
      expect(denials, id).toHaveLength(1);
      expect(denials[0].Action, id).toBe('sqs:*');
    }
  });

  it('the delivery queue redrives only after the last attempt plus two, and its visibility covers six timeouts', () => {
    const q = queue(deliveryQueueId());
    expect(DELIVERY_ATTEMPTS).toBe(maxAttempts());
    expect(q.RedrivePolicy.maxReceiveCount).toBe(maxAttempts() + 2);
    expect(q.VisibilityTimeout).toBeGreaterThanOrEqual(6 * DELIVERY_TIMEOUT.toSeconds() + DELIVERY_BATCHING_WINDOW.toSeconds());
    expect(q.VisibilityTimeout).toBeGreaterThanOrEqual(180);
  });

  it('the delivery queue keeps a message through the longest retry schedule', () => {
    // Every delay at its largest: +20% jitter, or a receiver's Retry-After at the cap, at most 12 h.
    const delays = Array.from({ length: maxAttempts() - 1 }, (_, i) =>
      retryDelayS(i + 1, DEFAULT_RETRY_SCHEDULE_S, MAX_RETRY_AFTER_S * 1000, () => 1)!,
    );
    const longest = delays.reduce((a, b) => a + b, 0) + maxAttempts() * DELIVERY_TIMEOUT.toSeconds();
    // Without it the queue's 4-day default would decide silently.
    expect(queue(deliveryQueueId()).MessageRetentionPeriod).toBeGreaterThan(longest);
  });

  it('both failure queues keep messages 14 days; the stream-failure queue has its own DLQ', () => {
    for (const id of [deliveryDlqId(), streamFailureQueueId(), streamFailureDlqId()]) {
      expect(queue(id).MessageRetentionPeriod, id).toBe(14 * 86_400);
    }
    for (const id of [deliveryDlqId(), streamFailureDlqId()]) expect(queue(id).RedrivePolicy, id).toBeUndefined();
    expect(queue(streamFailureQueueId()).RedrivePolicy.maxReceiveCount).toBe(STREAM_FAILURE_MAX_RECEIVES);
  });

  it('an alarm fires on the first message in either dead-letter queue, and stays quiet without data', () => {
    for (const qid of [deliveryDlqId(), streamFailureQueueId()]) {
      const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, a]) =>
        (a.Properties.Dimensions ?? []).some((d: Json) => d.Name === 'QueueName' && getAtts(d.Value).includes(qid)),
      );
      expect(alarms, qid).toHaveLength(1);
      expect(alarms[0]![1].Properties, qid).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        Period: 300,
        TreatMissingData: 'notBreaching',
      });
    }
    // The other alarms (API, functions, table, stream, queue age): test/unit/observability.test.ts.
  });

  it('both functions get the queue URLs and nothing local', () => {
    for (const fn of [fanoutId(), deliveryId()]) {
      const env = resources[fn]!.Properties.Environment.Variables;
      expect(env.WEBHOOK_QUEUE_URL, fn).toEqual({ Ref: deliveryQueueId() });
      expect(env.WEBHOOK_DLQ_URL, fn).toEqual({ Ref: deliveryDlqId() });
      expect(env.TABLE_NAME, fn).toEqual({ Ref: tableId() });
    }
  });

  it('fan-out reads tenants and endpoints, writes only kept event bodies in webhook partitions, and may only send to the delivery queue', () => {
    const fn = fanoutId();
    const actions = actionsOf(fn);
    expect(actions).toContain('dynamodb:Query'); // endpoints of a tenant
    expect(actions).toContain('dynamodb:BatchWriteItem'); // kept event bodies
    for (const a of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Scan', 'dynamodb:PartiQLUpdate', 'dynamodb:PartiQLInsert']) {
      expect(actions).not.toContain(a);
    }
    const stream = ['dynamodb:ListStreams', 'dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];
    for (const st of dynamoStatements(fn).filter((x) => [x.Action].flat().some((a: string) => !stream.includes(a)))) {
      // Items on the table itself (no index), under a condition on every item's partition key.
      expect(st.Resource).toEqual({ 'Fn::GetAtt': [tableId(), 'Arn'] });
      const leading = st.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'];
      if ([st.Action].flat().includes('dynamodb:BatchWriteItem')) {
        expect([st.Action].flat()).toEqual(['dynamodb:BatchWriteItem']);
        expect(leading).toEqual([`T#*${WEBHOOK_PARTITION_SUFFIX}`]);
      } else {
        expect([st.Action].flat().sort()).toEqual(['dynamodb:GetItem', 'dynamodb:Query']);
        expect(leading).toEqual([keys.tenantPartition('*')]);
      }
    }
    expect(actionsOn(fn, deliveryQueueId())).toContain('sqs:SendMessage');
    expect(actionsOn(fn, deliveryQueueId())).not.toContain('sqs:ReceiveMessage');
    expect(actionsOn(fn, deliveryDlqId())).toEqual([]);
  });

  it('delivery may only Get, Query, Put, Update and batch-write items in webhook partitions, on the table itself', () => {
    const fn = deliveryId();
    const statements = dynamoStatements(fn);
    expect(statements.length).toBeGreaterThan(0);
    for (const st of statements) {
      expect(st.Effect).toBe('Allow');
      expect(st.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`T#*${WEBHOOK_PARTITION_SUFFIX}`] } });
      // The table only: no index, no stream.
      expect(st.Resource).toEqual({ 'Fn::GetAtt': [tableId(), 'Arn'] });
      // BatchWriteItem: a delivery batch's attempt records and kept bodies, under the same condition.
      for (const a of [st.Action].flat()) expect(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'], a).toContain(a);
    }
    const actions = actionsOf(fn);
    // Query (the workspace's endpoints, a replay's scan of the log) is confined like the rest.
    expect(actions).toContain('dynamodb:Query');
    for (const a of ['dynamodb:Scan', 'dynamodb:DeleteItem', ...UNUSED_ACTIONS, ...FORBIDDEN_ACTIONS.filter((f) => f !== 'dynamodb:BatchWriteItem')]) {
      expect(actions).not.toContain(a);
    }
  });

  it('the delivery condition admits exactly the webhook and attempt keys of any tenant', () => {
    const [pattern] = dynamoStatements(deliveryId())[0].Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'];
    const like = iamLike(pattern);
    expect(admittedBy(pattern)).toEqual(['attempt', 'event', 'replay', 'webhook']);
    for (const [name, key] of builtKeys()) expect(like.test(key.PK), name).toBe(key.PK === keys.webhookPartition('tenant-1'));
    // Candidates, users and tokens of the same tenant share its id but not the partition.
    expect(like.test(keys.candidate('tenant-1', 'c').PK)).toBe(false);
    expect(like.test(keys.tenantToken('tenant-1', 't').PK)).toBe(false);
  });

  it('delivery consumes and re-times messages on the delivery queue, sends to it (replay, endpoint_disabled) and to the DLQ', () => {
    const fn = deliveryId();
    const onQueue = actionsOn(fn, deliveryQueueId());
    for (const a of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:SendMessage']) expect(onQueue).toContain(a);
    expect(actionsOn(fn, deliveryDlqId())).toContain('sqs:SendMessage');
    expect(actionsOn(fn, deliveryDlqId())).not.toContain('sqs:ReceiveMessage');
    expect(actionsOn(fn, streamFailureQueueId())).toEqual([]);
  });

  it('with an alarm topic, every alarm notifies it; without one, the stack’s own topic', () => {
    const outdir = mkdtempSync(path.join(tmpdir(), 'stack-test-'));
    try {
      const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
      // The operators' topic, from a stack of their own.
      const alarmTopic = new sns.Topic(new Stack(app, 'Ops'), 'Alarms');
      const stack = new TalentPipelineStack(app, 'WithTopic', { alarmTopic, consoleDir: CONSOLE_DIR });
      const assembly = app.synth();
      const res = assembly.getStackArtifact(stack.artifactId).template.Resources as Record<string, CfnResource>;
      const alarms = ofType('AWS::CloudWatch::Alarm', res);
      expect(alarms.length).toBeGreaterThan(2);
      expect(ofType('AWS::SNS::Topic', res)).toEqual([]);
      const exported = Object.values<Json>(assembly.getStackByName('Ops').template.Outputs).map((o) => o.Export.Name);
      expect(exported).toHaveLength(1);
      for (const [id, a] of alarms) expect(a.Properties.AlarmActions, id).toEqual([{ 'Fn::ImportValue': exported[0] }]);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
    const [[ownTopic]] = ofType('AWS::SNS::Topic') as [[string, CfnResource]];
    for (const [id, a] of ofType('AWS::CloudWatch::Alarm')) expect(a.Properties.AlarmActions, id).toEqual([{ Ref: ownTopic }]);
  });
});

describe('gateway responses', () => {
  const responseOf = (type: string) => {
    const found = ofType('AWS::ApiGateway::GatewayResponse').filter(([, r]) => r.Properties.ResponseType === type);
    expect(found, type).toHaveLength(1);
    return found[0]![1].Properties;
  };

  const expected: Array<[type: string, status: string, error: { error: string; code: string }]> = [
    ['UNAUTHORIZED', '401', GATEWAY_ERRORS.unauthorized],
    ['ACCESS_DENIED', '403', GATEWAY_ERRORS.accessDenied],
    ['MISSING_AUTHENTICATION_TOKEN', '404', GATEWAY_ERRORS.notFound],
    // THROTTLED (with code and Retry-After) and QUOTA_EXCEEDED: test/unit/rate-limits.test.ts.
    ['AUTHORIZER_FAILURE', '500', GATEWAY_ERRORS.authorizerFailure],
    ['AUTHORIZER_CONFIGURATION_ERROR', '500', GATEWAY_ERRORS.authorizerFailure],
    ['REQUEST_TOO_LARGE', '413', GATEWAY_ERRORS.requestTooLarge],
    ['DEFAULT_4XX', 'its own status', GATEWAY_ERRORS.default4xx],
    ['DEFAULT_5XX', 'its own status', GATEWAY_ERRORS.default5xx],
  ];

  it.each(expected)('%s answers %s with { error, code } as JSON', (type, shown, e) => {
    const status = shown === 'its own status' ? undefined : shown;
    const r = responseOf(type);
    expect(r.StatusCode).toBe(status);
    const body = r.ResponseTemplates['application/json'];
    expect(body).not.toMatch(/[$#]/); // VTL would interpret these
    expect(JSON.parse(body)).toEqual({ error: e.error, code: e.code });
    expect(r.ResponseParameters).toEqual({
      'gatewayresponse.header.Content-Type': "'application/json'",
      'gatewayresponse.header.Cache-Control': "'no-store'",
    });
  });

  it('the 401 is the JSON error and names no Bearer scheme: token and cookie routes share it', () => {
    const r = responseOf('UNAUTHORIZED');
    expect(r.StatusCode).toBe('401');
    expect(r.ResponseTemplates).toEqual({ 'application/json': JSON.stringify({ error: GATEWAY_ERRORS.unauthorized.error, code: 'unauthorized' }) });
    expect(Object.keys(r.ResponseParameters).map((k) => k.toLowerCase())).not.toContain('gatewayresponse.header.www-authenticate');
  });
});

describe('stage', () => {
  it('is prod, throttled, without data trace, with a JSON access log that has no headers', () => {
    const stages = ofType('AWS::ApiGateway::Stage');
    expect(stages).toHaveLength(1);
    const p = stages[0]![1].Properties;
    expect(p.StageName).toBe('prod');
    expect(p.MethodSettings).toContainEqual(
      expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100, DataTraceEnabled: false }),
    );
    const format: string = p.AccessLogSetting.Format;
    expect(getAtts(p.AccessLogSetting.DestinationArn).every((id) => resources[id]!.Type === 'AWS::Logs::LogGroup')).toBe(true);
    for (const field of ['$context.requestId', '$context.identity.sourceIp', '$context.httpMethod', '$context.status', '$context.responseLatency']) {
      expect(format).toContain(field);
    }
    expect(format).not.toMatch(/authorization|header|cookie/i);
    // Valid JSON once API Gateway substitutes the (already quoted) error message.
    expect(() => JSON.parse(format.replace('$context.error.messageString', '"x"'))).not.toThrow();
  });
});

describe('outputs', () => {
  it('exports the API base URL with the prefix and the table name', () => {
    const outputs = template.toJSON().Outputs;
    const url = JSON.stringify(outputs.ApiUrl.Value);
    expect(url).toContain(`"${API_PREFIX}"`);
    expect(url).toContain('execute-api');
    expect(outputs.TableName.Value).toEqual({ Ref: tableId() });
  });

  it('exports the site URL: https and the distribution domain, where the console and /api live', () => {
    const outputs = template.toJSON().Outputs;
    const [distribution] = ofType('AWS::CloudFront::Distribution')[0]!;
    expect(outputs.SiteUrl.Value).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution, 'DomainName'] }]] });
  });

  it('exports the webhook delivery queue and its dead-letter queue', () => {
    const outputs = template.toJSON().Outputs;
    expect(outputs.DeliveryQueueUrl.Value).toEqual({ Ref: deliveryQueueId() });
    expect(outputs.DeliveryDlqUrl.Value).toEqual({ Ref: deliveryDlqId() });
  });
});

/** Synth without esbuild: only the template matters here. */
function synthTemplate(props: TalentPipelineStackProps, context: Record<string, unknown> = {}) {
  const outdir = mkdtempSync(path.join(tmpdir(), 'stack-test-'));
  try {
    const app = new App({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [] } });
    const stack = new TalentPipelineStack(app, 'Extended', { consoleDir: CONSOLE_DIR, ...props });
    return app.synth().getStackArtifact(stack.artifactId).template.Resources as Record<string, CfnResource>;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

describe('console and API on one origin', () => {
  /** Routes whose function runs lib/http.ts refuseCrossSite (cookie writes, login included). */
  const ORIGIN_CHECKED = ROUTES.filter((r) => r.auth !== 'token' && r.method !== 'GET');
  /** AWS's managed policy ids (CloudFront developer guide), pinned independently of CDK's constants. */
  const CACHING_DISABLED_ID = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
  const ALL_VIEWER_EXCEPT_HOST_HEADER_ID = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

  const one = (type: string, res = resources) => {
    const found = ofType(type, res);
    expect(found, type).toHaveLength(1);
    return found[0]!;
  };
  const bucketId = () => one('AWS::S3::Bucket')[0];
  const distributionId = () => one('AWS::CloudFront::Distribution')[0];
  const config = () => one('AWS::CloudFront::Distribution')[1].Properties.DistributionConfig;
  const originOf = (behavior: Json) => config().Origins.find((o: Json) => o.Id === behavior.TargetOriginId);
  const apiBehavior = () => {
    const behaviors = config().CacheBehaviors;
    expect(behaviors).toHaveLength(1);
    expect(behaviors[0].PathPattern).toBe(API_PATH_PATTERN);
    return behaviors[0];
  };
  /** The code of the one CloudFront function a behaviour runs on viewer requests. */
  const viewerRequestCode = (behavior: Json): string => {
    expect(behavior.FunctionAssociations).toHaveLength(1);
    expect(behavior.FunctionAssociations[0].EventType).toBe('viewer-request');
    const fn = resources[oneGetAtt(behavior.FunctionAssociations[0].FunctionARN, 'AWS::CloudFront::Function')]!.Properties;
    expect(fn.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    expect(fn.AutoPublish).toBe(true);
    // CloudFront Functions: at most 10 KB of code.
    expect(Buffer.byteLength(fn.FunctionCode)).toBeLessThan(10_240);
    return fn.FunctionCode;
  };
  /** Runs CloudFront function code on an event, in a context without Node's globals. */
  const runFunction = (code: string, event: Json): Json =>
    vm.runInNewContext(`${code}\nhandler(event);`, { event: structuredClone(event) }, { timeout: 1000 });
  const viewerEvent = (uri: string, headers: Record<string, string> = {}) => ({
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip: '203.0.113.7' },
    request: {
      method: 'POST',
      uri,
      querystring: {},
      cookies: {},
      headers: Object.fromEntries(Object.entries({ host: 'd111111abcdef8.cloudfront.net', ...headers }).map(([k, v]) => [k, { value: v }])),
    },
  });
  const withOriginVerify = (res = resources) =>
    appFunctions(res)
      .filter(([, f]) => 'ORIGIN_VERIFY' in f.Properties.Environment.Variables)
      .map(([id, f]) => [id, f.Properties.Environment.Variables.ORIGIN_VERIFY] as const);

  it('the bucket is private: every public access blocked, TLS enforced, S3-managed encryption, no ACLs', () => {
    const p = resources[bucketId()]!.Properties;
    expect(p.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(p.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }]);
    expect(p.OwnershipControls.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerEnforced' }]);
    expect(p.WebsiteConfiguration).toBeUndefined();
    expect(p.AccessControl).toBeUndefined();
  });

  it('only CloudFront, for this distribution, may read the bucket (origin access control), and only over TLS', () => {
    const [, policy] = one('AWS::S3::BucketPolicy');
    expect(policy.Properties.Bucket).toEqual({ Ref: bucketId() });
    const statements: Json[] = policy.Properties.PolicyDocument.Statement;
    const allows = statements.filter((st) => st.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0].Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect(allows[0].Action).toBe('s3:GetObject');
    expect(Object.keys(allows[0].Condition)).toEqual(['StringEquals']);
    const sourceArn = allows[0].Condition.StringEquals['AWS:SourceArn'];
    expect(JSON.stringify(sourceArn)).toContain(':distribution/');
    expect(JSON.stringify(sourceArn)).toContain(JSON.stringify({ Ref: distributionId() }));
    const denials = statements.filter((st) => st.Effect === 'Deny');
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({ Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } });
    // The bucket's origin signs with OAC; no legacy origin access identity.
    const origin = originOf(config().DefaultCacheBehavior);
    expect(origin.DomainName).toEqual({ 'Fn::GetAtt': [bucketId(), 'RegionalDomainName'] });
    expect(origin.S3OriginConfig.OriginAccessIdentity).toBe('');
    const oac = resources[oneGetAtt(origin.OriginAccessControlId, 'AWS::CloudFront::OriginAccessControl')]!.Properties;
    expect(oac.OriginAccessControlConfig).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' });
    expect(ofType('AWS::CloudFront::CloudFrontOriginAccessIdentity')).toEqual([]);
  });

  it('the default behaviour serves the bucket over HTTPS (redirect), compressed, GET/HEAD, with the rewrite function', () => {
    const b = config().DefaultCacheBehavior;
    expect(originOf(b).S3OriginConfig).toBeDefined();
    expect(b.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(b.Compress).toBe(true);
    expect(b.AllowedMethods).toEqual(['GET', 'HEAD']);
    expect(viewerRequestCode(b)).toBe(SPA_REWRITE_CODE);
    expect(config().DefaultRootObject).toBe('index.html');
  });

  it('has no distribution-wide error responses: the API keeps its own 403s and 404s', () => {
    expect(config().CustomErrorResponses).toBeUndefined();
  });

  it('the rewrite function gives client-side routes the page and leaves files alone', () => {
    const code = viewerRequestCode(config().DefaultCacheBehavior);
    const uriFor = (uri: string) => runFunction(code, viewerEvent(uri)).uri;
    for (const route of ['/settings/tokens', '/', '/webhooks', '/webhooks/wh_123/deliveries', '/members/']) expect(uriFor(route), route).toBe('/index.html');
    for (const file of ['/assets/a.js', '/assets/index-abc123.css', '/favicon.svg', '/index.html']) expect(uriFor(file), file).toBe(file);
  });

  it(`${API_PATH_PATTERN} goes to the API stage: all methods, HTTPS only, caching disabled, every viewer header but Host`, () => {
    const b = apiBehavior();
    expect(b.AllowedMethods.sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(b.ViewerProtocolPolicy).toBe('https-only');
    expect(b.CachePolicyId).toBe(CACHING_DISABLED_ID);
    expect(b.CachePolicyId).toBe(cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId);
    expect(b.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER_ID);
    expect(b.OriginRequestPolicyId).toBe(cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId);
    const origin = originOf(b);
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    const apiId = one('AWS::ApiGateway::RestApi')[0];
    const stageId = one('AWS::ApiGateway::Stage')[0];
    expect(JSON.stringify(origin.DomainName)).toContain(JSON.stringify({ Ref: apiId }));
    expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.');
    // The stage is the origin path: /api/v1/... reaches /prod/api/v1/..., the route table's paths.
    expect(JSON.stringify(origin.OriginPath)).toContain(JSON.stringify({ Ref: stageId }));
    expect(ROUTES.every((r) => r.path.startsWith(API_PATH_PATTERN.slice(0, -1)))).toBe(true);
  });

  it('the API function sets the viewer address and host, overwriting what the browser sent', () => {
    const code = viewerRequestCode(apiBehavior());
    const spoofed = viewerEvent('/api/session', {
      [VIEWER_ADDRESS_HEADER]: '198.51.100.66',
      [FORWARDED_HOST_HEADER]: 'evil.example',
      [ORIGIN_VERIFY_HEADER]: 'a guess',
    });
    const out = runFunction(code, spoofed);
    expect(out.uri).toBe('/api/session');
    expect(out.headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '203.0.113.7' });
    expect(out.headers[FORWARDED_HOST_HEADER]).toEqual({ value: 'd111111abcdef8.cloudfront.net' });
    // The origin adds the real secret; a copy from the browser never travels on.
    expect(out.headers[ORIGIN_VERIFY_HEADER]).toBeUndefined();
    expect(out.headers.host).toEqual({ value: 'd111111abcdef8.cloudfront.net' });
    // A repeated header (CloudFront's multiValue) is replaced as a whole.
    const repeated = viewerEvent('/api/tokens');
    repeated.request.headers[VIEWER_ADDRESS_HEADER] = { value: '198.51.100.1', multiValue: [{ value: '198.51.100.1' }, { value: '198.51.100.2' }] } as Json;
    expect(runFunction(code, repeated).headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '203.0.113.7' });
  });

  it('lib/edge.ts believes the function’s headers next to the origin secret, and only then', async () => {
    vi.stubEnv('TABLE_NAME', 'stack-test');
    const edge = await import('../../lib/edge');
    vi.unstubAllEnvs();
    const forwarded = runFunction(viewerRequestCode(apiBehavior()), viewerEvent('/api/session', { [VIEWER_ADDRESS_HEADER]: '198.51.100.66' }));
    // What API Gateway hands the function: CloudFront's headers with its own Host, and the edge's IP.
    const headers = Object.fromEntries(Object.entries<Json>(forwarded.headers).map(([k, v]) => [k, v.value as string]));
    const event = (extra: Record<string, string>) => ({
      headers: { ...headers, host: 'abc123.execute-api.eu-west-1.amazonaws.com', ...extra },
      requestContext: { identity: { sourceIp: '130.176.0.1' } },
    });
    const secret = 's3cret-from-secrets-manager';
    expect(edge.clientAddress(event({ [ORIGIN_VERIFY_HEADER]: secret }), secret)).toBe('203.0.113.7');
    expect(edge.siteHosts(event({ [ORIGIN_VERIFY_HEADER]: secret }), secret)).toContain('d111111abcdef8.cloudfront.net');
    expect(edge.clientAddress(event({}), secret)).toBe('130.176.0.1');
    expect(edge.siteHosts(event({ [ORIGIN_VERIFY_HEADER]: 'wrong' }), secret)).not.toContain('d111111abcdef8.cloudfront.net');
  });

  it(`the API origin adds ${ORIGIN_VERIFY_HEADER} from a secret generated at deploy time, never written in the template`, () => {
    const headers = originOf(apiBehavior()).OriginCustomHeaders;
    expect(headers.map((h: Json) => h.HeaderName)).toEqual([ORIGIN_VERIFY_HEADER]);
    const [secretId, secret] = one('AWS::SecretsManager::Secret');
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.Properties.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(32);
    expect(headers[0].HeaderValue).toEqual({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] });
    // The S3 origin gets no secret: it authenticates CloudFront by OAC.
    expect(originOf(config().DefaultCacheBehavior).OriginCustomHeaders).toBeUndefined();
  });

  it('ORIGIN_VERIFY reaches exactly the cookie-write and login functions, with the origin header’s value', () => {
    expect(ORIGIN_CHECKED.map((r) => r.handler)).toContain('login');
    expect(ORIGIN_CHECKED.every((r) => r.auth === 'session' || r.handler === 'login')).toBe(true);
    const expected = [...new Set(ORIGIN_CHECKED.map((r) => functionOf(r.handler)))].sort();
    expect(expected.length).toBeGreaterThan(1);
    const got = withOriginVerify();
    expect(got.map(([id]) => id).sort()).toEqual(expected);
    const headerValue = originOf(apiBehavior()).OriginCustomHeaders[0].HeaderValue;
    for (const [id, value] of got) expect(value, id).toEqual(headerValue);
    // Not the token routes, GET-only modules, the authorizers or the webhook pipeline.
    const readOnly = ROUTES.filter((r) => r.method === 'GET' && !ORIGIN_CHECKED.some((w) => w.handler === r.handler));
    const tokenOnly = ROUTES.filter((r) => r.auth === 'token' && !ORIGIN_CHECKED.some((w) => w.handler === r.handler));
    expect(readOnly.length).toBeGreaterThan(0);
    expect(tokenOnly.length).toBeGreaterThan(0);
    for (const module of [TOKEN_AUTHORIZER_MODULE, SESSION_AUTHORIZER_MODULE, ...PIPELINE_MODULES, ...[...readOnly, ...tokenOnly].map((r) => r.handler)]) {
      expect(expected, module).not.toContain(functionOf(module));
    }
    // And no function reads the removed SITE_ORIGINS any more.
    for (const [id, f] of appFunctions()) expect(Object.keys(f.Properties.Environment.Variables), id).not.toContain('SITE_ORIGINS');
  });

  it('the console and API behaviours send lib/security-headers.ts, overriding the origin', () => {
    const policyOf = (behavior: Json) => {
      const id = behavior.ResponseHeadersPolicyId.Ref;
      expect(resources[id]!.Type).toBe('AWS::CloudFront::ResponseHeadersPolicy');
      return resources[id]!.Properties.ResponseHeadersPolicyConfig;
    };
    const cases = [
      [config().DefaultCacheBehavior, CONSOLE_SECURITY_HEADERS, CONSOLE_CSP],
      [apiBehavior(), API_SECURITY_HEADERS, API_CSP],
    ] as const;
    expect(policyOf(cases[0][0])).not.toEqual(policyOf(cases[1][0]));
    for (const [behavior, headers, csp] of cases) {
      const policy = policyOf(behavior);
      expect(Object.keys(policy).sort()).toEqual(['Comment', 'Name', 'SecurityHeadersConfig']);
      const h = policy.SecurityHeadersConfig;
      expect(Object.keys(h).sort()).toEqual(['ContentSecurityPolicy', 'ContentTypeOptions', 'FrameOptions', 'ReferrerPolicy', 'StrictTransportSecurity']);
      expect(h.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: csp, Override: true });
      expect(headers['Content-Security-Policy']).toBe(csp);
      expect(h.ContentTypeOptions).toEqual({ Override: true });
      expect(headers['X-Content-Type-Options']).toBe('nosniff');
      expect(h.FrameOptions).toEqual({ FrameOption: headers['X-Frame-Options'], Override: true });
      expect(h.FrameOptions.FrameOption).toBe('DENY');
      expect(h.ReferrerPolicy).toEqual({ ReferrerPolicy: headers['Referrer-Policy'], Override: true });
      expect(h.ReferrerPolicy.ReferrerPolicy).toBe('no-referrer');
      expect(h.StrictTransportSecurity).toEqual({ AccessControlMaxAgeSec: HSTS_MAX_AGE_SECONDS, IncludeSubdomains: true, Override: true });
      // What a browser receives is the header lib/security-headers.ts sends locally.
      const hsts = `max-age=${h.StrictTransportSecurity.AccessControlMaxAgeSec}${h.StrictTransportSecurity.IncludeSubdomains ? '; includeSubDomains' : ''}`;
      expect(hsts).toBe(headers['Strict-Transport-Security']);
    }
  });

  it('BucketDeployment uploads the built console: hashed assets (immutable) first, then the page (no-cache), invalidating /index.html', () => {
    const deployments = ofType('Custom::CDKBucketDeployment');
    expect(deployments).toHaveLength(2);
    const assets = deployments.find(([, d]) => JSON.stringify(d.Properties.Include) === JSON.stringify([`${HASHED_ASSETS_PREFIX}*`]))!;
    const page = deployments.find(([id]) => id !== assets?.[0])!;
    expect(assets).toBeDefined();
    for (const [id, d] of deployments) {
      expect(d.Properties.DestinationBucketName, id).toEqual({ Ref: bucketId() });
      expect(d.Properties.Prune, id).toBe(false);
      // The uploaded zip is the console directory handed to the stack.
      expect(d.Properties.SourceObjectKeys, id).toHaveLength(1);
      const dir = assetDirByKey.get(d.Properties.SourceObjectKeys[0]);
      expect(dir, id).toBeDefined();
      expect(readFileSync(path.join(dir!, 'index.html'), 'utf8')).toBe(readFileSync(path.join(CONSOLE_DIR, 'index.html'), 'utf8'));
    }
    expect(assets[1].Properties.Exclude).toEqual(['*']);
    expect(assets[1].Properties.SystemMetadata['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(assets[1].Properties.DistributionId).toBeUndefined();
    expect(page[1].Properties.Exclude).toEqual([`${HASHED_ASSETS_PREFIX}*`]);
    expect(page[1].Properties.Include).toBeUndefined();
    expect(page[1].Properties.SystemMetadata['cache-control']).toBe('no-cache');
    expect(page[1].Properties.DistributionId).toEqual({ Ref: distributionId() });
    expect(page[1].Properties.DistributionPaths).toEqual(['/index.html']);
    expect(page[1].DependsOn ?? []).toContain(assets[0]);
  });

  it('the deployment function writes only the console bucket, reads only the asset bucket, and logs with a retention', () => {
    const ids = deploymentHandlerIds();
    expect(ids).toHaveLength(1);
    const fn = resources[ids[0]!]!.Properties;
    expect(resources[fn.LoggingConfig.LogGroup.Ref]!.Properties.RetentionInDays).toBe(30);
    expect(fn.Environment?.Variables ?? {}).not.toHaveProperty('ORIGIN_VERIFY');
    for (const st of statementsOf(ids[0]!)) {
      const actions: string[] = [st.Action].flat();
      if (actions.some((a) => a.startsWith('cloudfront:'))) {
        // CreateInvalidation has no narrower resource CDK can name here.
        expect(actions.sort()).toEqual(['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation']);
        continue;
      }
      for (const a of actions) expect(a).toMatch(/^s3:/);
      const writes = actions.filter((a) => /^s3:(Put|Delete|Abort)/.test(a));
      const targets = [st.Resource].flat();
      if (writes.length) for (const t of targets) expect(getAtts(t)).toEqual([bucketId()]);
      else for (const t of targets) expect(JSON.stringify(t)).toMatch(/cdk-[a-z0-9]+-assets-/);
    }
  });

  it('a missing console is refused with the command that builds it', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'stack-test-noconsole-'));
    try {
      expect(() => synthTemplate({ consoleDir: empty })).toThrow(/npm run build:console/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('route table drives the stack', () => {
  const synthWithout = (table: readonly Route[]) => synthTemplate({ routes: table });
  const pipelineRoute = ROUTES.find((r) => r.handler === 'get-pipeline')!;

  it('a route with a path parameter becomes a nested {id} resource with its method', () => {
    const extra: Route = { ...pipelineRoute, path: `${API_PREFIX}/requisitions/{id}` };
    const res = synthWithout([...ROUTES, extra]);
    expect(Object.values(res).some((r) => r.Type === 'AWS::ApiGateway::Resource' && r.Properties.PathPart === '{id}')).toBe(true);
    const keys = [...methods(res).keys()];
    expect(keys).toContain(`GET ${API_PREFIX}/requisitions/{id}`);
    expect(keys).toHaveLength(ROUTES.length + 1);
    // Same module, same function: no duplicate bundle.
    expect(appFunctions(res)).toHaveLength(new Set(ROUTES.map((r) => r.handler)).size + extraFunctionCount());
  });

  it('another session route shares the one REQUEST authorizer on the Cookie header, never cached', () => {
    const me: Route = { ...pipelineRoute, path: '/api/session/me', auth: 'session', scope: undefined };
    const res = synthWithout([...ROUTES, me]);
    const id = authorizerOfType('REQUEST', res);
    expect(res[id]!.Properties.IdentitySource).toBe('method.request.header.Cookie');
    expect(res[id]!.Properties.AuthorizerResultTtlInSeconds).toBe(0);
    const all = methods(res);
    expect(all.get('GET /api/session/me').AuthorizerId).toEqual({ Ref: id });
    for (const r of SESSION_ROUTES) expect(all.get(label(r)).AuthorizerId, label(r)).toEqual({ Ref: id });
    expect(appFunctions(res)).toHaveLength(new Set(ROUTES.map((r) => r.handler)).size + extraFunctionCount());
  });

  it('a table without session routes has no REQUEST authorizer and no session-authorizer function', () => {
    const table = ROUTES.filter((r) => r.auth !== 'session');
    const res = synthWithout(table);
    expect(ofType('AWS::ApiGateway::Authorizer', res).map(([, a]) => a.Properties.Type)).toEqual(['TOKEN']);
    expect(appFunctions(res).map(([fnId]) => fnId).filter((fnId) => fnId.startsWith(`${pascal(SESSION_AUTHORIZER_MODULE)}Fn`))).toEqual([]);
    expect(appFunctions(res)).toHaveLength(new Set(table.map((r) => r.handler)).size + extraFunctionCount(table));
    expect(extraFunctionCount(table)).toBe(1 + PIPELINE_MODULES.length);
  });

  it('a route added with auth none is open and nothing else becomes open', () => {
    const health: Route = { ...pipelineRoute, path: `${API_PREFIX}/health`, auth: 'none', scope: undefined };
    const res = synthWithout([...ROUTES, health]);
    const open = [...methods(res)].filter(([, m]) => m.AuthorizationType === 'NONE').map(([key]) => key);
    expect(open.sort()).toEqual([...PUBLIC_ROUTES, health].map(label).sort());
  });

  it('an authorizer or webhook pipeline module cannot serve a route', () => {
    for (const handler of [TOKEN_AUTHORIZER_MODULE, SESSION_AUTHORIZER_MODULE]) {
      const bad = { ...pipelineRoute, path: `${API_PREFIX}/${handler}`, handler } as unknown as Route;
      expect(() => synthWithout([...ROUTES, bad]), handler).toThrow(/authorizer module/);
    }
    for (const handler of PIPELINE_MODULES) {
      const bad = { ...pipelineRoute, path: `${API_PREFIX}/${handler}`, handler } as unknown as Route;
      expect(() => synthWithout([...ROUTES, bad]), handler).toThrow(/webhook pipeline module/);
    }
  });

  it('a route timeout must end before API Gateway gives up, and a shared module takes the longest', () => {
    for (const timeoutSeconds of [API_INTEGRATION_TIMEOUT_S, 60, 0, 2.5]) {
      const slow: Route = { ...pipelineRoute, timeoutSeconds };
      expect(() => synthWithout([...ROUTES.filter((r) => r !== pipelineRoute), slow]), String(timeoutSeconds)).toThrow(/timeoutSeconds/);
    }
    const slower: Route = { ...pipelineRoute, path: `${API_PREFIX}/pipeline/slow`, timeoutSeconds: API_INTEGRATION_TIMEOUT_S - 1 };
    const res = synthWithout([...ROUTES, slower]);
    expect(res[functionOf('get-pipeline', res)]!.Properties.Timeout).toBe(API_INTEGRATION_TIMEOUT_S - 1);
  });

  it('the deployed stack has a REQUEST authorizer exactly when the table has a session route', () => {
    const hasSession = ROUTES.some((r) => r.auth === 'session');
    expect(ofType('AWS::ApiGateway::Authorizer').map(([, a]) => a.Properties.Type).sort()).toEqual(hasSession ? ['REQUEST', 'TOKEN'] : ['TOKEN']);
  });
});
