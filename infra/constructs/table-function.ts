/**
 * A bundled Node.js function with the table name and exactly the table access it needs, granted in
 * the same call, so its access is stated where it is declared and nowhere else: the building
 * block of every function the stack deploys.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, Names, Stack, Validations, type CfnElement, type Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { StageConfig } from '../stages';
import { routes, type Route } from '../../lib/routes';
import { APPLY_LIMIT_ATTRIBUTES, APPLY_LIMIT_PREFIX, keys, LEASE_ATTRIBUTES, uploadKey } from '../../lib/store/table';
import type { Role } from '../../lib/model';
import { ROUTE_ROLES } from '../../lib/permissions';

/** Repository root: esbuild's project root and the base of every `functions/<name>.ts` entry. */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The only partitions the delivery function may touch: `T#<any tenant>#WEBHOOKS`. */
export const WEBHOOK_LEADING_KEYS = [keys.webhookPartition('*')];

/** Every workspace's audit partition, `T#<any tenant>#AUDIT`: records there are only ever put, by one function. */
export const AUDIT_LEADING_KEYS = [keys.auditPartition('*')];
/**
 * What no function may do in an audit partition: change or remove a record (BatchWriteItem, which
 * can delete, too), nor put one: records come only from the intents of changes, through the
 * table maintenance consumer (AUDIT_WRITER_DENIED_ACTIONS). Denied on every function's role,
 * whatever its grants allow elsewhere, so no code path and no future grant can forge or edit the
 * log; records leave by TTL only.
 */
export const AUDIT_DENIED_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
/** The same for the one function that writes records (`writesAudit`): it may only put them. */
export const AUDIT_WRITER_DENIED_ACTIONS = AUDIT_DENIED_ACTIONS.filter((a) => a !== 'dynamodb:PutItem');

/** The handler module's source file: `functions/<module>.ts`. */
export const entryFor = (module: string) => path.join(PROJECT_ROOT, 'functions', `${module}.ts`);

/** `list-candidates` -> `ListCandidates`, a stable construct id per handler module. */
export const pascal = (module: string) =>
  module
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/**
 * Bundling for every function (sizes and costs: docs/benchmarks.md, "Bundles"):
 * - the AWS SDK v3 is bundled, not loaded from the runtime: measured faster cold starts and a
 *   pinned SDK version (the lockfile's, not whatever the runtime ships);
 * - `mainFields: ['module', 'main']` picks the SDK's ESM builds (~346 KB instead of ~548 KB);
 * - the createRequire banner keeps CJS dependencies that call `require('node:...')` working
 *   inside the ESM bundle ("Dynamic require of node:https" otherwise);
 * - no source maps: they slowed error paths ~2.5x, and NODE_OPTIONS stays unset so
 *   `--enable-source-maps` is never on;
 * - aliases (LAMBDA_ALIASES) replace code that cannot run in Lambda, found with esbuild's
 *   metafile (`tsx scripts/bench/bundles.ts <module>`):
 *   - the SDK's default credential chain, by the environment provider Lambda uses
 *     (lib/aws/lambda-credentials.ts): its SSO, profile, web identity and IMDS providers with
 *     their nested STS/SSO/sign-in clients were ~100 KB of each bundle;
 *   - the X-Ray SDK's entry, by one that loads only what the Powertools Tracer uses
 *     (lib/aws/xray-sdk-core.ts: no SDK v2 or HTTP patchers, no semver, no EC2/ECS plugins), and
 *     cls-hooked's emitter binding (lib/aws/no-emitter-binding.cjs): ~42 KB of each bundle, which
 *     brings the Tracer's cost from ~120 KB to ~78 KB (`npx tsx scripts/bench/tracing-cost.ts`);
 *   - the SDK's event-stream serde, by a stand-in that refuses (lib/aws/no-event-streams.ts): no
 *     operation this service calls streams events, and it was ~15–19 KB of every bundle;
 *   - the DynamoDB client's endpoint discovery config, by one without its LRU cache
 *     (lib/aws/no-endpoint-discovery.ts): no command this service sends uses discovery, ~8 KB;
 *   - Powertools' JMESPath, by a reader of field paths (lib/aws/jmespath-fields.ts): Idempotency
 *     selects its key and payload by a bare field name, and the interpreter was ~23 KB of each
 *     idempotent function;
 * - plugins (infra/constructs/lambda-bundle.mjs) cut what an alias cannot reach: the REST
 *   clients' schemas of operations never sent, the X-Ray SDK's field lists of services we do not
 *   trace, and the clients' package.json but for their version;
 * - LAMBDA_DEFINE leaves the route table's documentation text out of every bundle, and
 *   lambdaDefine the permission table's lines of other functions' routes.
 * Every function is traced (lib/tracer.ts) and fits the 400 KB budget with it (the file worker its
 * own, FILE_WORKER_BUDGET): test/unit/stack/table-and-functions.test.ts and
 * test/unit/tracing-bundles.test.ts hold it.
 */
export const LAMBDA_ALIASES: Record<string, string> = {
  '@aws-sdk/credential-provider-node': path.join(PROJECT_ROOT, 'lib', 'aws', 'lambda-credentials.ts'),
  'aws-xray-sdk-core': path.join(PROJECT_ROOT, 'lib', 'aws', 'xray-sdk-core.ts'),
  'emitter-listener': path.join(PROJECT_ROOT, 'lib', 'aws', 'no-emitter-binding.cjs'),
  '@smithy/core/event-streams': path.join(PROJECT_ROOT, 'lib', 'aws', 'no-event-streams.ts'),
  '@aws-sdk/middleware-endpoint-discovery': path.join(PROJECT_ROOT, 'lib', 'aws', 'no-endpoint-discovery.ts'),
  '@aws-lambda-powertools/jmespath/functions': path.join(PROJECT_ROOT, 'lib', 'aws', 'jmespath-fields.ts'),
  '@aws-lambda-powertools/jmespath': path.join(PROJECT_ROOT, 'lib', 'aws', 'jmespath-fields.ts'),
};

/**
 * Build-time constants of every Lambda bundle: `DOCS` (lib/api/route.ts) is false, so esbuild
 * inlines it and the minifier drops the route lines' summaries and error sentences, which only
 * the OpenAPI document reads (test/unit/bundle-docs.test.ts).
 */
export const LAMBDA_DEFINE: Record<string, string> = { 'process.env.TP_API_DOCS': JSON.stringify('off') };

/** The esbuild settings every function shares (the rest, per function: lambdaBuildOptions). */
export const BUNDLING = {
  format: 'esm' as const,
  target: 'node24',
  minify: true,
  mainFields: ['module', 'main'],
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  // Licence comments of bundled packages: text at the end of the file that nothing reads.
  legalComments: 'none' as const,
};

/**
 * The permission table's lines (lib/permissions.ts) of the routes a module serves, console twins
 * included: what its bundle's lib/route-lines.ts holds instead of the whole table.
 */
export function routeLinesOf(module: string): Record<string, readonly Role[]> {
  const lines: Record<string, readonly Role[]> = {};
  for (const r of routes) {
    const name = `${r.method} ${r.path}`;
    const roles = (ROUTE_ROLES as Readonly<Record<string, readonly Role[]>>)[name];
    if (r.handler === module && roles) lines[name] = roles;
  }
  return lines;
}

/** LAMBDA_DEFINE with one function's permission lines (TP_ROUTE_ROLES, read by lib/route-lines.ts). */
export const lambdaDefine = (module: string): Record<string, string> => ({
  ...LAMBDA_DEFINE,
  'process.env.TP_ROUTE_ROLES': JSON.stringify(JSON.stringify(routeLinesOf(module))),
});

/**
 * esbuild's options for one function as the stack bundles it, but the plugins (which
 * lambda-bundle.mjs adds; the bench and tests add lambdaPlugins()); `alias` swaps in another set
 * to compare.
 */
export const lambdaBuildOptions = (module: string, alias: Record<string, string> = LAMBDA_ALIASES) => ({
  ...BUNDLING,
  banner: { js: BUNDLING.banner },
  entryPoints: [entryFor(module)],
  absWorkingDir: PROJECT_ROOT,
  bundle: true,
  platform: 'node' as const,
  define: lambdaDefine(module),
  alias,
  logLevel: 'error' as const,
});

/** Runs infra/constructs/lambda-bundle.mjs: esbuild with the plugins its CLI cannot take. */
export const BUNDLER = path.join(PROJECT_ROOT, 'infra', 'constructs', 'lambda-bundle.mjs');

/**
 * One function's code: its bundle, index.mjs, built in a node process of its own. As with
 * NodejsFunction's bundling, a synth that skips bundling (`aws:cdk:bundling-stacks`) neither
 * builds nor hashes it; the image is never used, as local bundling always answers.
 */
export const lambdaCode = (module: string): lambda.Code =>
  lambda.Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('local-bundling-only'),
      // Never run (local bundling always answers), but part of CDK's asset cache key, which
      // skips tryBundle: without the module every function would get the first one's bundle.
      command: ['lambda-bundle.mjs', module],
      local: {
        tryBundle(outputDir) {
          // The unit tests' shared synth builds every function in one esbuild run first
          // (test/helpers/prebuilt-bundles.ts): the same bundles, the SDK parsed once, not per function.
          const prebuilt = process.env.TP_PREBUILT_BUNDLES && path.join(process.env.TP_PREBUILT_BUNDLES, `${module}.mjs`);
          if (prebuilt && existsSync(prebuilt)) {
            copyFileSync(prebuilt, path.join(outputDir, 'index.mjs'));
            return true;
          }
          execFileSync(
            process.execPath,
            [BUNDLER, JSON.stringify({ ...lambdaBuildOptions(module), outfile: path.join(outputDir, 'index.mjs') })],
            {
              stdio: 'inherit',
            },
          );
          return true;
        },
      },
    },
  });

/**
 * Table-wide grants (on the table and its indexes) are for route functions; the authorizers, the
 * fan-out and the delivery function get partition-confined grants instead (PARTITION_GRANTS).
 */
export type TableAccess = 'none' | 'read' | 'write' | ConfinedAccess;
export type ConfinedAccess = 'token-authorizer' | 'session-authorizer' | 'webhooks' | 'fanout' | 'file-worker';

/**
 * Exactly the DynamoDB actions the code uses (lib/store): GetItem, BatchGetItem and Query to read;
 * grantReadData would add Scan, which no request path may use. BatchGetItem is GetItem by the
 * hundred on the same items (a requisition with its plan, a person's candidates, a member's
 * assigned candidates); DynamoDB Local enforces no IAM, so only this list stands between such a read
 * and an AccessDenied once deployed. TransactGetItems needs no action of its own: IAM authorises it
 * by the GetItem of each item inside it.
 * TransactWriteItems is authorised by the Put/Update/Delete/ConditionCheck inside it; the
 * ConditionChecks are users.ts createUser's (the tenant must exist), tokens.ts createToken's (the
 * maker's role) and the erasure marker's that every write of a copy of a candidate's data carries
 * (lib/store/copies.ts), all in writes.
 */
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
export const TABLE_ACTIONS: Record<'none' | 'read' | 'write', string[]> = {
  none: [],
  read: READ_ACTIONS,
  write: [...READ_ACTIONS, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
};
/** The only attributes an authorizer may write: when a token or session was last used. */
export const AUTHORIZER_WRITABLE = ['PK', 'SK', 'last_used_at', 'last_seen_at'];

/**
 * A statement on the table itself (no index ARNs: none of these actions uses an index) for items
 * whose partition key matches `leadingKeys` (IAM StringLike). `writesOnly` further limits the
 * attributes an UpdateItem may set, and forbids it to return any.
 */
export interface PartitionGrant {
  actions: string[];
  leadingKeys: string[];
  writesOnly?: string[];
}
/** `TOKEN#<digest>`: the token lookup item findTokenGrant reads. */
export const TOKEN_LOOKUP_LEADING_KEYS = [keys.token('*').PK];
/** `T#<tenant>`: the tenant's token listing item whose last_used_at touchToken sets. */
export const TENANT_LEADING_KEYS = [keys.tenantPartition('*')];
/** `SESSION#<digest>`: the session item getSession reads and touchSession slides. */
export const SESSION_LEADING_KEYS = [keys.session('*').PK];
/** `T#<tenant>#PERSON#<person>`: a person's partition (their files, among others). */
export const PERSON_LEADING_KEYS = [keys.personPartition('*', '*')];
/** `T#<tenant>#UPLOAD#<upload>`: an upload's record, alone in its partition (lib/store/files.ts). */
export const UPLOAD_LEADING_KEYS = [uploadKey('*', '*').PK];
/** `T#<tenant>#LEASES`: the slots of a caller's costly requests in flight (lib/store/leases.ts). */
export const LEASE_LEADING_KEYS = [keys.leasePartition('*')];
/** What a function with `leases` may do there beside its access: take a slot and give it back. */
export const LEASE_GRANT: PartitionGrant = {
  actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
  leadingKeys: LEASE_LEADING_KEYS,
  writesOnly: LEASE_ATTRIBUTES,
};

/** `APPLYLIMIT#...`: the application limits' counters, which the application function alone writes. */
export const APPLY_LIMIT_GRANT: PartitionGrant = {
  actions: ['dynamodb:UpdateItem'],
  leadingKeys: [`${APPLY_LIMIT_PREFIX}*`],
  writesOnly: APPLY_LIMIT_ATTRIBUTES,
};

export const PARTITION_GRANTS: Record<ConfinedAccess, PartitionGrant[]> = {
  'token-authorizer': [
    { actions: ['dynamodb:GetItem'], leadingKeys: TOKEN_LOOKUP_LEADING_KEYS },
    { actions: ['dynamodb:UpdateItem'], leadingKeys: TENANT_LEADING_KEYS, writesOnly: AUTHORIZER_WRITABLE },
  ],
  'session-authorizer': [
    { actions: ['dynamodb:GetItem'], leadingKeys: SESSION_LEADING_KEYS },
    { actions: ['dynamodb:UpdateItem'], leadingKeys: SESSION_LEADING_KEYS, writesOnly: AUTHORIZER_WRITABLE },
  ],
  // The delivery function reads its endpoint, records attempts, kept events, replay progress and
  // endpoint health, and nothing else: candidates, users and tokens stay out of reach. Query: the
  // workspace's other endpoints (endpoint_disabled event) and a replay job's scan of the log.
  // BatchWriteItem: a batch's attempt records and kept bodies, 25 per call, in the same partitions.
  // BatchGetItem: the batch's erasure markers, 100 per call.
  // ConditionCheckItem: a copy of a candidate's data (an attempt holding the receiver's answer, a
  // kept body) goes in a transaction with the check that its erasure marker, in the same webhook
  // partition, is absent, and with its copy-ledger entry (a Put there too).
  webhooks: [
    {
      actions: [
        'dynamodb:GetItem',
        'dynamodb:BatchGetItem',
        'dynamodb:Query',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:BatchWriteItem',
        'dynamodb:ConditionCheckItem',
      ],
      leadingKeys: WEBHOOK_LEADING_KEYS,
    },
  ],
  // The stream fan-out reads a workspace's slug (GetItem of its tenant item; IAM cannot tell that
  // item from the others of `T#<id>`, so GetItem is the one action there), lists its endpoints
  // (Query) and keeps the bodies of the events it queues, both in the webhook partitions only:
  // bodies that copy a candidate's data in transactions (PutItem, with the erasure marker's
  // ConditionCheckItem and the copy-ledger entry), others with BatchWriteItem. No index.
  // The file worker reads a file record and writes its outcome and its text (one transaction of
  // an Update and a Put), in person partitions; and it reads an upload issued for a new person
  // and records what it found on it (GetItem, UpdateItem), in upload partitions: each upload's
  // record is alone in its partition, so the rest of a workspace stays out of reach.
  'file-worker': [
    { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem'], leadingKeys: PERSON_LEADING_KEYS },
    { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], leadingKeys: UPLOAD_LEADING_KEYS },
  ],
  fanout: [
    { actions: ['dynamodb:GetItem'], leadingKeys: TENANT_LEADING_KEYS },
    {
      actions: ['dynamodb:Query', 'dynamodb:BatchWriteItem', 'dynamodb:PutItem', 'dynamodb:ConditionCheckItem'],
      leadingKeys: WEBHOOK_LEADING_KEYS,
    },
  ],
};
export const ACCESS_RANK: Route['access'][] = ['none', 'read', 'write'];

export interface TableFunctionProps {
  /** Module under functions/ that exports `handler`. */
  module: string;
  table: dynamodb.ITable;
  /** What the function may do to the table (TABLE_ACTIONS). */
  access: TableAccess;
  timeout: Duration;
  description?: string;
  /** Variables besides TABLE_NAME and the Powertools settings. */
  environment?: Record<string, string>;
  /** The deployment stage: how long the function's logs are kept, and its service name. */
  stage: StageConfig;
  /** The audit records' writer (the table maintenance consumer): PutItem in audit partitions is not denied to it. */
  writesAudit?: boolean;
  /** MB; default 512. */
  memorySize?: number;
}

/**
 * A bundled Node.js function that is handed the table name and, in the same step, exactly the
 * table access it needs (no grant lives apart from its function), plus its own log group with a
 * retention.
 */
export class TableFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: TableFunctionProps) {
    super(scope, id);
    const entry = entryFor(props.module);
    if (!existsSync(entry)) {
      throw new Error(`Handler module ${props.module} has no entry file at ${path.relative(PROJECT_ROOT, entry)}`);
    }
    // Without an explicit group Lambda creates one that keeps logs forever.
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: props.stage.logRetention, removalPolicy: props.stage.logRemovalPolicy });
    // Our own role instead of AWSLambdaBasicExecutionRole, which may write to any log group of the
    // account: this one writes only its function's group (and X-Ray traces, added by `tracing`).
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Talent pipeline: ${props.module}`,
    });
    logGroup.grantWrite(role);
    this.fn = new NodejsFunction(this, 'Fn', {
      // Bundled by lambdaCode, not NodejsFunction's esbuild CLI, which takes no plugins.
      code: lambdaCode(props.module),
      handler: 'index.handler',
      // The newest Node.js runtime Lambda and this CDK version offer; handlers are all async
      // (Node 24 dropped callback handlers). Local tools still run on the machine's Node 20.
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      // Lambda scales CPU with memory: 512 MB roughly halves cold-start init of a ~400 KB bundle
      // compared with 128 MB, at a per-ms price these short requests hardly notice.
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout,
      description: props.description,
      logGroup,
      role,
      // Powertools Tracer (lib/tracer.ts) records each DynamoDB, SQS, SES and API Gateway call as a subsegment.
      tracing: lambda.Tracing.ACTIVE,
      environment: {
        TABLE_NAME: props.table.tableName,
        // Per stage: the `service` dimension of every metric (infra/stages.ts).
        POWERTOOLS_SERVICE_NAME: props.stage.serviceName,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
    });
    this.acknowledgeFindings(role, props);
    // ForAnyValue: a request is refused when any key it names is in an audit partition.
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        effect: iam.Effect.DENY,
        actions: props.writesAudit ? AUDIT_WRITER_DENIED_ACTIONS : AUDIT_DENIED_ACTIONS,
        resources: [props.table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': AUDIT_LEADING_KEYS } },
      }),
    );
    const access = props.access;
    // Its route line says it takes and gives back lease slots (lib/store/leases.ts).
    if (routes.some((r) => r.handler === props.module && r.leases)) this.grantInPartition(props.table, LEASE_GRANT);
    // Its route line says it takes applications, and their limits' slots (lib/store/application-limits.ts).
    if (routes.some((r) => r.handler === props.module && r.formToken === 'check')) this.grantInPartition(props.table, APPLY_LIMIT_GRANT);
    if (access === 'none') return;
    if (access === 'read' || access === 'write') {
      props.table.grant(this.fn, ...TABLE_ACTIONS[access]);
      return;
    }
    for (const grant of PARTITION_GRANTS[access]) this.grantInPartition(props.table, grant);
  }

  /** Not table.grant: no index ARNs, and a condition on the partition key of every item touched. */
  private grantInPartition(table: dynamodb.ITable, grant: PartitionGrant) {
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: grant.actions,
        resources: [table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': grant.leadingKeys },
          ...(grant.writesOnly && {
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': grant.writesOnly },
            StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
          }),
        },
      }),
    );
  }

  /** cdk-nag IAM5 findings of this role that are bounded on purpose (test/unit/nag.test.ts). */
  private acknowledgeFindings(role: iam.Role, props: TableFunctionProps) {
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        "Only actions without resource-level permissions use '*': X-Ray's PutTraceSegments and PutTelemetryRecords (active tracing) and, for the stream fan-out, dynamodb:ListStreams; the stack test pins this.",
    });
    if (props.access === 'read' || props.access === 'write') {
      const cfnTable = props.table.node.defaultChild as CfnElement;
      // In the table's own stack the ARN is its GetAtt; in a nested stack of route functions
      // (infra/constructs/route-stacks.ts) a parameter, which CDK names after the table's unique id.
      const tableArn =
        Stack.of(cfnTable) === Stack.of(this)
          ? `${Stack.of(this).getLogicalId(cfnTable)}.Arn`
          : `referenceto${Names.nodeUniqueId(cfnTable.node)}Arn`;
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${tableArn}>/index/*]`,
        reason: "The table's own indexes (Query on GSIs for listings), with the same actions as on the table; no other table's.",
      });
    }
  }
}
