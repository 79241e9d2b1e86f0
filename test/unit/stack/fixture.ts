/**
 * Shared setup of the stack template tests (test/unit/stack/*.test.ts): the synthesized default
 * stack (one synth with bundling per vitest run, test/helpers/stack-synth.ts) and the helpers that
 * find things in its template. Expectations come from the route table, TABLE_DEF and the webhook
 * modules, so a new route or event filter is checked without touching the tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect } from 'vitest';
import { routes, type Route } from '../../../lib/routes';
import { keys } from '../../../lib/store/table';
import { STUCK_REINDEX_MODULE } from '../../../infra/constructs/stuck-reindex';
import { RETENTION_MODULE } from '../../../infra/constructs/retention';
import { INTERVIEW_MOVES_MODULE } from '../../../infra/constructs/interview-follow-up';
import { DELIVERY_MODULE, FANOUT_MODULE } from '../../../infra/constructs/webhook-pipeline';
import { IMPORT_WORKER_MODULE } from '../../../infra/constructs/import-queue';
import { FILE_WORKER_MODULE } from '../../../infra/constructs/file-worker';
import { OFFER_EXPIRY_MODULE } from '../../../infra/constructs/offer-expiry';
import { SCREENING_REJECTIONS_MODULE } from '../../../infra/constructs/screening-rejections';
import { TalentPipelineStack, type TalentPipelineStackProps } from '../../../infra/stack';
import { sharedStack } from '../../helpers/stack-synth';
import { flattenedTemplate } from '../../helpers/stack-templates';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
export interface CfnResource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string[];
}

export const ROUTES: readonly Route[] = routes;
export const label = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;
export const PUBLIC_ROUTES = ROUTES.filter((r) => r.auth === 'none');
export const SESSION_ROUTES = ROUTES.filter((r) => r.auth === 'session');
export const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];
/** What lib/store reads with: GetCommand and QueryCommand (queryAll), nothing else. */
export const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
/** What a write route may do besides reading; ConditionCheckItem for users.ts createUser's transaction. */
export const ROUTE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'];
/** Never granted to any function: bulk writes and table-wide reads or changes. */
export const FORBIDDEN_ACTIONS = [
  'dynamodb:BatchWriteItem',
  'dynamodb:Scan',
  'dynamodb:DeleteTable',
  'dynamodb:UpdateTable',
  'dynamodb:*',
  '*',
];
/** Granted by CDK's grantReadData but called by no function (dev's DescribeTable runs outside Lambda). */
export const UNUSED_ACTIONS = ['dynamodb:DescribeTable', 'dynamodb:TransactGetItems'];
/** `list-candidates` -> `ListCandidates`, the construct id prefix of a module's function. */
export const pascal = (module: string) =>
  module
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
/**
 * The webhook pipeline, the stuck index's re-index, the daily retention run, the move to
 * interviewed, the import worker and the file worker: functions behind no route.
 */
export const PIPELINE_MODULES = [
  FANOUT_MODULE,
  DELIVERY_MODULE,
  STUCK_REINDEX_MODULE,
  RETENTION_MODULE,
  INTERVIEW_MOVES_MODULE,
  SCREENING_REJECTIONS_MODULE,
  OFFER_EXPIRY_MODULE,
  IMPORT_WORKER_MODULE,
  FILE_WORKER_MODULE,
];
/** Set only for local runs (`npm start`, tests); a deployed function must never see them. */
export const LOCAL_ONLY_ENV = ['WEBHOOK_ALLOW_LOOPBACK', 'SQS_ENDPOINT', 'DYNAMODB_ENDPOINT', 'WEBHOOK_RETRY_SCHEDULE'];

export let template: Template;
export let resources: Record<string, CfnResource>;
/** Asset S3 object key -> bundle directory inside the cloud assembly. */
export let assetDirByKey: Map<string, string>;
/** The built-console stand-in the shared stack was synthesized with (test/helpers/unit-global-setup.ts). */
export let CONSOLE_DIR: string;
/** Every module's bundle as the shared synth built them, mail domain's included (SharedStack.bundlesDir). */
export let BUNDLES_DIR: string;

beforeAll(async () => {
  const shared = await sharedStack();
  template = Template.fromJSON(shared.template);
  resources = template.toJSON().Resources;
  assetDirByKey = shared.assetDirByKey;
  CONSOLE_DIR = shared.consoleDir;
  BUNDLES_DIR = shared.bundlesDir;
  // One esbuild bundle per function (40 now), once per run: on two shared cores under load it took 131 s.
}, 300_000);

// ---------- template navigation ----------

export const ofType = (type: string, res = resources) => Object.entries(res).filter(([, r]) => r.Type === type);

/** The function CDK's BucketDeployment runs (a Python singleton that uploads the console). */
export const deploymentHandlerIds = (res = resources): string[] => [
  ...new Set(ofType('Custom::CDKBucketDeployment', res).flatMap(([, d]) => getAtts(d.Properties.ServiceToken))),
];
/** The project's own functions: every Lambda function but the BucketDeployment handler. */
export const appFunctions = (res = resources) => {
  const deployment = deploymentHandlerIds(res);
  return ofType('AWS::Lambda::Function', res).filter(([id]) => !deployment.includes(id));
};

/** Logical ids named by `Fn::GetAtt` anywhere inside a value. */
export function getAtts(value: Json): string[] {
  if (Array.isArray(value)) return value.flatMap(getAtts);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (k === 'Fn::GetAtt' ? [(v as string[])[0]!] : getAtts(v)));
  }
  return [];
}

/** The one Lambda function a value (an integration or authorizer URI) points at. */
export function functionIn(value: Json): string {
  const fns = [...new Set(getAtts(value))].filter((id) => resources[id]?.Type === 'AWS::Lambda::Function');
  expect(fns).toHaveLength(1);
  return fns[0]!;
}

/** Full path of an AWS::ApiGateway::Resource, rebuilt from PathPart and ParentId. */
export function resourcePath(id: string, res = resources): string {
  const { ParentId: parent, PathPart } = res[id]!.Properties;
  const prefix = parent.Ref ? resourcePath(parent.Ref, res) : ''; // Fn::GetAtt RootResourceId = root
  return `${prefix}/${PathPart}`;
}

/** Every method of the API keyed `METHOD /path`. */
export function methods(res = resources): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const [, m] of ofType('AWS::ApiGateway::Method', res)) {
    out.set(`${m.Properties.HttpMethod} ${resourcePath(m.Properties.ResourceId.Ref, res)}`, m.Properties);
  }
  return out;
}

export function methodFor(route: Pick<Route, 'method' | 'path'>): Json {
  const m = methods().get(`${route.method} ${route.path}`);
  expect(m, `no method for ${route.method} ${route.path}`).toBeDefined();
  return m;
}

export function roleOf(fnId: string): string {
  const role = getAtts(resources[fnId]!.Properties.Role);
  expect(role).toHaveLength(1);
  return role[0]!;
}

/** Every statement of every policy attached to a function's role. */
export function allStatementsOf(fnId: string): Json[] {
  const role = roleOf(fnId);
  expect(resources[role]!.Properties.Policies).toBeUndefined();
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === role))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
}

/** A statement every function has: writing its own logs, or X-Ray traces (test/unit/observability.test.ts pins them). */
export const isLogsOrTraces = (st: Json) => [st.Action].flat().every((a: string) => /^(logs|xray):/.test(a));

/**
 * The statement every function has that denies changing or removing audit records
 * (least-privilege.test.ts, "the audit log cannot be changed", pins it on each).
 */
export const isAuditGuard = (st: Json) => st.Effect === 'Deny' && JSON.stringify(st.Condition ?? {}).includes('#AUDIT');

/** What a function may do to data: every statement but its logs, traces and audit guard. */
export const statementsOf = (fnId: string): Json[] => allStatementsOf(fnId).filter((st) => !isLogsOrTraces(st) && !isAuditGuard(st));

export const actionsOf = (fnId: string): string[] => statementsOf(fnId).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
/** The distinct DynamoDB actions of a function, sorted. */
export const dynamoActionsOf = (fnId: string): string[] => [...new Set(actionsOf(fnId).filter((a) => a.startsWith('dynamodb:')))].sort();
export const dynamoStatements = (fnId: string) =>
  statementsOf(fnId).filter((st) => [st.Action].flat().some((a: string) => a.startsWith('dynamodb:')));

export const tableId = () => {
  const tables = ofType('AWS::DynamoDB::Table');
  expect(tables).toHaveLength(1);
  return tables[0]![0];
};

export const authorizerOfType = (type: 'TOKEN' | 'REQUEST', res = resources) => {
  const found = ofType('AWS::ApiGateway::Authorizer', res).filter(([, a]) => a.Properties.Type === type);
  expect(found, type).toHaveLength(1);
  return found[0]![0];
};
export const tokenAuthorizerId = () => authorizerOfType('TOKEN');
export const sessionAuthorizerId = () => authorizerOfType('REQUEST');

export const routeFunctionIds = () => [...new Set(ROUTES.map((r) => functionIn(methodFor(r).Integration.Uri)))];
export const authorizerFunctionId = () => functionIn(resources[tokenAuthorizerId()]!.Properties.AuthorizerUri);
export const sessionAuthorizerFunctionId = () => functionIn(resources[sessionAuthorizerId()]!.Properties.AuthorizerUri);
export const authorizerFunctionIds = () => [authorizerFunctionId(), ...(SESSION_ROUTES.length ? [sessionAuthorizerFunctionId()] : [])];
/** Authorizer functions besides the route handlers: the TOKEN one, and the session one when a route needs it. */
export const authorizerCount = (table: readonly Route[] = ROUTES) => 1 + (table.some((r) => r.auth === 'session') ? 1 : 0);
/** Functions besides the route handlers: the authorizers and the webhook pipeline. */
export const extraFunctionCount = (table: readonly Route[] = ROUTES) => authorizerCount(table) + PIPELINE_MODULES.length;

/** The one function built from a module (construct id `<Pascal>Fn...`). */
export function functionOf(module: string, res = resources): string {
  const found = appFunctions(res).filter(([id]) => id.startsWith(`${pascal(module)}Fn`));
  expect(found, module).toHaveLength(1);
  return found[0]![0];
}

/** The one event source mapping that invokes a function. */
export function mappingOf(fnId: string): Json {
  const found = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.FunctionName?.Ref === fnId);
  expect(found, fnId).toHaveLength(1);
  return found[0]![1].Properties;
}

/** The resource a single `Fn::GetAtt` inside a value names, checked for its type. */
export function oneGetAtt(value: Json, type: string): string {
  const ids = [...new Set(getAtts(value))];
  expect(ids).toHaveLength(1);
  expect(resources[ids[0]!]!.Type).toBe(type);
  return ids[0]!;
}

/** The webhook queues, found by their roles in the template rather than by name. */
export const deliveryQueueId = () => oneGetAtt(mappingOf(functionOf(DELIVERY_MODULE)).EventSourceArn, 'AWS::SQS::Queue');
export const importQueueId = () => oneGetAtt(mappingOf(functionOf(IMPORT_WORKER_MODULE)).EventSourceArn, 'AWS::SQS::Queue');
export const importDlqId = () => oneGetAtt(resources[importQueueId()]!.Properties.RedrivePolicy.deadLetterTargetArn, 'AWS::SQS::Queue');
export const deliveryDlqId = () => oneGetAtt(resources[deliveryQueueId()]!.Properties.RedrivePolicy.deadLetterTargetArn, 'AWS::SQS::Queue');
export const streamFailureQueueId = () =>
  oneGetAtt(mappingOf(functionOf(FANOUT_MODULE)).DestinationConfig.OnFailure.Destination, 'AWS::SQS::Queue');
export const streamFailureDlqId = () =>
  oneGetAtt(resources[streamFailureQueueId()]!.Properties.RedrivePolicy.deadLetterTargetArn, 'AWS::SQS::Queue');

/** Statements of a function that name a given resource. */
export const statementsOn = (fnId: string, targetId: string) => statementsOf(fnId).filter((s) => getAtts(s.Resource).includes(targetId));
export const actionsOn = (fnId: string, targetId: string) => statementsOn(fnId, targetId).flatMap((s) => [s.Action].flat() as string[]);

/** IAM `StringLike` as a RegExp: `*` matches any run of characters (our patterns use no `?`). */
export const iamLike = (pattern: string) => {
  expect(pattern).not.toContain('?');
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${pattern.split('*').map(literal).join('.*')}$`);
};

/** Every item key lib/store/table.ts builds, for one tenant and ids, by builder name. */
export const builtKeys = () =>
  Object.entries(keys)
    .filter(([, build]) => typeof build === 'function')
    .map(([name, build]) => [name, (build as (...a: string[]) => unknown)('tenant-1', 'id-2', 'id-3')] as const)
    .filter((entry): entry is readonly [string, { PK: string; SK: string }] => typeof (entry[1] as Json)?.PK === 'string');
/** Names of the key builders whose partition key a LeadingKeys pattern admits. */
export const admittedBy = (pattern: string) =>
  builtKeys()
    .filter(([, key]) => iamLike(pattern).test(key.PK))
    .map(([name]) => name)
    .sort();

// ---------- tests ----------

/** Synth without esbuild: only the template matters here. */
export function synthTemplate(props: TalentPipelineStackProps, context: Record<string, unknown> = {}) {
  const outdir = mkdtempSync(path.join(tmpdir(), 'stack-test-'));
  try {
    const app = new App({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [] } });
    const stack = new TalentPipelineStack(app, 'Extended', { consoleDir: CONSOLE_DIR, ...props });
    return flattenedTemplate(app.synth().directory, stack.artifactId).Resources as Record<string, CfnResource>;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
