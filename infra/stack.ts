/**
 * The deployed shape: one DynamoDB table derived from TABLE_DEF, one REST API whose resources,
 * methods and Lambda functions are generated from the route table, the authorizers that guard
 * them, and the webhook pipeline (table stream -> fan-out -> delivery queue -> delivery).
 * Adding a route to lib/routes.ts needs no change here.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ErrorCode } from '../lib/errors';
import { GATEWAY_ERRORS, gatewayErrorBody } from '../lib/gateway-responses';
import { API_PREFIX, routes as ROUTE_TABLE, type Route } from '../lib/routes';
import { keys, TABLE_DEF } from '../lib/store/table';
import { DEFAULT_RETRY_SCHEDULE_S } from '../lib/webhooks/config';
import { STREAM_FILTER_PATTERNS } from '../lib/webhooks/events';
import { ConsoleSite } from './console-site';
import { DEFAULT_CONSOLE_DIR } from './local/console-files';

/** Repository root: esbuild's project root and the base of every `functions/<name>.ts` entry. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Module under functions/ of the TOKEN authorizer, and of the REQUEST authorizer once it exists. */
export const TOKEN_AUTHORIZER_MODULE = 'authorizer';
export const SESSION_AUTHORIZER_MODULE = 'session-authorizer';

/** Revoked tokens and sessions must stop working within a minute; the cache is keyed by the credential. */
export const AUTHORIZER_CACHE_TTL = Duration.seconds(60);

/** Route functions time out after this unless their route sets `timeoutSeconds`. */
export const DEFAULT_ROUTE_TIMEOUT_S = 10;
/** API Gateway gives up on a Lambda integration after 29 s; a route function must end before that. */
export const API_INTEGRATION_TIMEOUT_S = 29;

/** Modules under functions/ of the webhook pipeline. */
export const FANOUT_MODULE = 'webhook-fanout';
export const DELIVERY_MODULE = 'webhook-delivery';
/**
 * A delivery batch of up to 10 messages is sent in parallel and each attempt takes at most
 * WEBHOOK_TIMEOUT_MS (15 s), plus the DynamoDB and SQS calls around it.
 */
export const DELIVERY_TIMEOUT = Duration.seconds(30);
/**
 * No batching window: the first attempt should go out at once (design.md: Svix retries
 * immediately), and the fan-out already enqueues in batches of 10, so a poll usually finds a full
 * batch anyway. A window would add its length to every first attempt and to the visibility timeout.
 */
export const DELIVERY_BATCHING_WINDOW = Duration.seconds(0);
/**
 * Attempts the deployed delivery function makes. It is given no WEBHOOK_RETRY_SCHEDULE, so it
 * runs the default schedule whatever the synthesizing shell has set (npm start shortens it).
 */
export const DELIVERY_ATTEMPTS = DEFAULT_RETRY_SCHEDULE_S.length + 1;
/** The only partitions the delivery function may touch: `T#<any tenant>#WEBHOOKS`. */
export const WEBHOOK_LEADING_KEYS = [keys.webhookPartition('*')];

const entryFor = (module: string) => path.join(PROJECT_ROOT, 'functions', `${module}.ts`);

/** `list-candidates` -> `ListCandidates`, a stable construct id per handler module. */
const pascal = (module: string) =>
  module
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/**
 * Bundling for every function (design.md, "Lambda bundles"):
 * - the AWS SDK v3 is bundled, not loaded from the runtime: measured faster cold starts and a
 *   pinned SDK version (the lockfile's, not whatever the runtime ships);
 * - `mainFields: ['module', 'main']` picks the SDK's ESM builds (~346 KB instead of ~548 KB);
 * - the createRequire banner keeps CJS dependencies that call `require('node:...')` working
 *   inside the ESM bundle ("Dynamic require of node:https" otherwise);
 * - no source maps: they slowed error paths ~2.5x, and NODE_OPTIONS stays unset so
 *   `--enable-source-maps` is never on.
 */
export const BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node22',
  minify: true,
  sourceMap: false,
  mainFields: ['module', 'main'],
  externalModules: [],
  bundleAwsSDK: true,
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
};

/**
 * Table-wide grants (on the table and its indexes) are for route functions and the fan-out;
 * the authorizers and the delivery function get partition-confined grants instead (PARTITION_GRANTS).
 */
export type TableAccess = 'none' | 'read' | 'write' | ConfinedAccess;
export type ConfinedAccess = 'token-authorizer' | 'session-authorizer' | 'webhooks';

/**
 * Exactly the DynamoDB actions the code uses (lib/store): GetItem and Query to read; grantReadData
 * would add Scan, which no request path may use, and BatchGetItem, which nothing calls.
 * TransactWriteItems is authorised by the Put/Update/Delete/ConditionCheck inside it; the only
 * ConditionCheck is users.ts createUser's (the tenant must exist), a write.
 */
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query'];
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
  webhooks: [{ actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], leadingKeys: WEBHOOK_LEADING_KEYS }],
};
const ACCESS_RANK: Route['access'][] = ['none', 'read', 'write'];

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
}

/**
 * A bundled Node.js function that is handed the table name and, in the same step, exactly the
 * table access it needs (style.md habit 8), plus its own log group with a retention.
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
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH });
    this.fn = new NodejsFunction(this, 'Fn', {
      entry,
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      // Lambda scales CPU with memory: 512 MB roughly halves cold-start init of a ~400 KB bundle
      // compared with 128 MB, at a per-ms price these short requests hardly notice.
      memorySize: 512,
      timeout: props.timeout,
      description: props.description,
      logGroup,
      bundling: BUNDLING,
      environment: {
        TABLE_NAME: props.table.tableName,
        POWERTOOLS_SERVICE_NAME: 'talent-pipeline',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
    });
    const access = props.access;
    if (access === 'none') return;
    if (access === 'read' || access === 'write') {
      props.table.grant(this.fn, ...TABLE_ACTIONS[access]);
      return;
    }
    // Not table.grant: no index ARNs, and a condition on the partition key of every item touched.
    for (const grant of PARTITION_GRANTS[access]) {
      this.fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: grant.actions,
          resources: [props.table.tableArn],
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
  }
}

/** A gateway response template is VTL: a `$` or `#` would be interpreted, so refuse them. */
export function gatewayErrorTemplate(error: string, code: ErrorCode): string {
  const body = gatewayErrorBody({ error, code });
  if (/[$#\\]/.test(body)) throw new Error(`Gateway error message needs VTL escaping: ${error}`);
  return body;
}

/** API Gateway's own refusals, answered with the same `{ error }` body the handlers use. */
const GATEWAY_RESPONSES: ReadonlyArray<{ type: apigateway.ResponseType; id: string; status?: number; error: string; code: ErrorCode }> = [
  { type: apigateway.ResponseType.UNAUTHORIZED, id: 'Unauthorized', ...GATEWAY_ERRORS.unauthorized },
  { type: apigateway.ResponseType.ACCESS_DENIED, id: 'AccessDenied', ...GATEWAY_ERRORS.accessDenied },
  // API Gateway reports an unknown path or method as MISSING_AUTHENTICATION_TOKEN (403).
  { type: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN, id: 'NotFound', ...GATEWAY_ERRORS.notFound },
  { type: apigateway.ResponseType.THROTTLED, id: 'Throttled', ...GATEWAY_ERRORS.throttled },
  { type: apigateway.ResponseType.AUTHORIZER_FAILURE, id: 'AuthorizerFailure', ...GATEWAY_ERRORS.authorizerFailure },
  { type: apigateway.ResponseType.AUTHORIZER_CONFIGURATION_ERROR, id: 'AuthorizerConfigurationError', ...GATEWAY_ERRORS.authorizerFailure },
  { type: apigateway.ResponseType.REQUEST_TOO_LARGE, id: 'RequestTooLarge', ...GATEWAY_ERRORS.requestTooLarge },
  // No status: the defaults keep the status of whichever 4XX/5XX type they stand in for.
  { type: apigateway.ResponseType.DEFAULT_4XX, id: 'Default4xx', ...GATEWAY_ERRORS.default4xx },
  { type: apigateway.ResponseType.DEFAULT_5XX, id: 'Default5xx', ...GATEWAY_ERRORS.default5xx },
];

/**
 * Access log line. Only context variables, never request headers: the Authorization header and
 * cookies carry credentials. principalId is the token id (not the token), tenantId scopes logs.
 */
const ACCESS_LOG_FIELDS: Record<string, string> = {
  requestId: apigateway.AccessLogField.contextRequestId(),
  ip: apigateway.AccessLogField.contextIdentitySourceIp(),
  requestTime: apigateway.AccessLogField.contextRequestTime(),
  method: apigateway.AccessLogField.contextHttpMethod(),
  path: apigateway.AccessLogField.contextPath(),
  resourcePath: apigateway.AccessLogField.contextResourcePath(),
  status: apigateway.AccessLogField.contextStatus(),
  latency: apigateway.AccessLogField.contextResponseLatency(),
  integrationLatency: apigateway.AccessLogField.contextIntegrationLatency(),
  responseLength: apigateway.AccessLogField.contextResponseLength(),
  errorType: apigateway.AccessLogField.contextErrorResponseType(),
  authorizerError: apigateway.AccessLogField.contextAuthorizerError(),
  principalId: apigateway.AccessLogField.contextAuthorizerPrincipalId(),
  tenantId: apigateway.AccessLogField.contextAuthorizer('tenantId'),
};
/** One JSON object per request; `$context.error.messageString` is already a quoted JSON string. */
const ACCESS_LOG_FORMAT = apigateway.AccessLogFormat.custom(
  `{${[
    ...Object.entries(ACCESS_LOG_FIELDS).map(([k, v]) => `"${k}":"${v}"`),
    `"error":${apigateway.AccessLogField.contextErrorMessageString()}`,
  ].join(',')}}`,
);

export interface TalentPipelineStackProps extends StackProps {
  /** The route table; defaults to lib/routes.ts. Tests pass extended tables. */
  routes?: readonly Route[];
  /**
   * Where the dead-letter alarms notify. Without it the alarms only change state; operators
   * attach their own action (pager, chat) to them.
   */
  alarmTopic?: sns.ITopic;
  /**
   * The built console that the distribution serves; defaults to `console/dist`. infra/app.ts
   * builds it before synth when it is missing.
   */
  consoleDir?: string;
}

/**
 * Routes whose function reads ORIGIN_VERIFY, to believe CloudFront's viewer headers (lib/edge.ts):
 * the cookie writes, which run the cross-site check as lib/http.ts apiHandler defines them (not a
 * token route, not a GET), and among them login, whose throttling counts by client address.
 */
const checksOrigin = (r: Route) => r.auth !== 'token' && r.method !== 'GET';

export class TalentPipelineStack extends Stack {
  readonly table: dynamodb.Table;
  readonly api: apigateway.RestApi;
  /** The function behind each handler module, authorizers and webhook pipeline included. */
  readonly functions = new Map<string, NodejsFunction>();
  /** One message per (event, endpoint); the delivery function consumes it. */
  readonly deliveryQueue: sqs.Queue;
  /** Deliveries that used up their attempts, and messages that kept crashing the function. */
  readonly deliveryDlq: sqs.Queue;
  /** Stream batches the fan-out gave up on (their shard positions, not the records). */
  readonly streamFailureQueue: sqs.Queue;
  /** CloudFront in front of the console bucket and, under /api, the REST API. */
  readonly site: ConsoleSite;

  constructor(scope: Construct, id: string, props: TalentPipelineStackProps = {}) {
    super(scope, id, props);
    const routeTable: readonly Route[] = props.routes ?? ROUTE_TABLE;

    const string = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: string(TABLE_DEF.partitionKey),
      sortKey: string(TABLE_DEF.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      stream: dynamodb.StreamViewType[TABLE_DEF.stream],
      timeToLiveAttribute: TABLE_DEF.ttlAttribute,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of Object.values(TABLE_DEF.indexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: string(index.partitionKey),
        sortKey: string(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', { retention: logs.RetentionDays.THREE_MONTHS });
    this.api = new apigateway.RestApi(this, 'Api', {
      restApiName: 'talent-pipeline',
      description: 'Multi-tenant hiring-pipeline API',
      // Regional: clients call it directly; an edge endpoint would add a CloudFront hop we do not manage.
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      // Access logging needs the account-level API Gateway CloudWatch role. Keep it on deletion:
      // it is shared by every API of the account and region.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: 'prod',
        // Stage-wide defaults shared by all tenants: far below the account's 10,000 rps so a
        // runaway client hits 429 before it exhausts the account's Lambda concurrency, and high
        // enough for normal integration traffic. Per-tenant limits would need usage plans.
        throttlingRateLimit: 50,
        throttlingBurstLimit: 100,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: ACCESS_LOG_FORMAT,
        // Execution logs with data trace would write request headers (the bearer token) to logs.
        dataTraceEnabled: false,
        loggingLevel: apigateway.MethodLoggingLevel.OFF,
      },
    });

    // ---- The console and the API on one origin (infra/console-site.ts) ----
    this.site = new ConsoleSite(this, 'Console', { api: this.api, consoleDir: props.consoleDir ?? DEFAULT_CONSOLE_DIR });
    const originEnv = { ORIGIN_VERIFY: this.site.originVerify };
    // ---- end console ----

    for (const r of GATEWAY_RESPONSES) {
      this.api.addGatewayResponse(r.id, {
        type: r.type,
        statusCode: r.status?.toString(),
        responseHeaders: {
          'Content-Type': "'application/json'",
          'Cache-Control': "'no-store'",
          // No WWW-Authenticate on the 401: a gateway response cannot vary by route, and a
          // `Bearer` challenge would be wrong for the cookie routes (the local gateway sends none either).
        },
        templates: { 'application/json': gatewayErrorTemplate(r.error, r.code) },
      });
    }

    const tableFunction = (
      module: string,
      access: TableAccess,
      timeout: Duration,
      description: string,
      environment?: Record<string, string>,
    ) => {
      const fn = new TableFunction(this, pascal(module), { module, table: this.table, access, timeout, description, environment }).fn;
      this.functions.set(module, fn);
      return fn;
    };

    // A cache hit skips the function, so the policy it returns covers every route the token may
    // call (lib/auth/policy.ts). One DynamoDB GetItem: 5 s is generous and fails fast to a 500.
    const tokenAuthorizer = new apigateway.TokenAuthorizer(this, 'TokenAuthorizer', {
      handler: tableFunction(TOKEN_AUTHORIZER_MODULE, 'token-authorizer', Duration.seconds(5), 'TOKEN authorizer for API tokens'),
      identitySource: apigateway.IdentitySource.header('Authorization'),
      resultsCacheTtl: AUTHORIZER_CACHE_TTL,
    });
    // Session routes (cookie) get a REQUEST authorizer, created only once such a route exists.
    const sessionAuthorizer = routeTable.some((r) => r.auth === 'session')
      ? new apigateway.RequestAuthorizer(this, 'SessionRequestAuthorizer', {
          handler: tableFunction(SESSION_AUTHORIZER_MODULE, 'session-authorizer', Duration.seconds(5), 'REQUEST authorizer for cookie sessions'),
          identitySources: [apigateway.IdentitySource.header('Cookie')],
          // Never cached: logout and the idle/absolute expiry must act on the very next request.
          resultsCacheTtl: Duration.seconds(0),
        })
      : undefined;
    const authorizerFor = (auth: Route['auth']): apigateway.MethodOptions => {
      if (auth === 'none') return { authorizationType: apigateway.AuthorizationType.NONE };
      if (auth === 'token') return { authorizer: tokenAuthorizer };
      if (sessionAuthorizer) return { authorizer: sessionAuthorizer };
      throw new Error('unreachable: session route without a session authorizer');
    };

    // One function per handler module; a module serving several routes gets the widest access
    // and the longest timeout any of them needs.
    const accessOf = new Map<string, Route['access']>();
    const timeoutOf = new Map<string, number>();
    for (const r of routeTable) {
      if (r.handler === TOKEN_AUTHORIZER_MODULE || r.handler === SESSION_AUTHORIZER_MODULE) {
        throw new Error(`Route ${r.method} ${r.path} uses an authorizer module as its handler`);
      }
      if (r.handler === FANOUT_MODULE || r.handler === DELIVERY_MODULE) {
        throw new Error(`Route ${r.method} ${r.path} uses a webhook pipeline module as its handler`);
      }
      const current = accessOf.get(r.handler) ?? 'none';
      accessOf.set(r.handler, ACCESS_RANK.indexOf(r.access) > ACCESS_RANK.indexOf(current) ? r.access : current);
      const timeout = r.timeoutSeconds ?? DEFAULT_ROUTE_TIMEOUT_S;
      // At or past the limit API Gateway answers 504 while the function still runs, and its logs
      // never say why the request failed.
      if (!Number.isInteger(timeout) || timeout < 1 || timeout >= API_INTEGRATION_TIMEOUT_S) {
        throw new Error(`Route ${r.method} ${r.path}: timeoutSeconds must be a whole number from 1 to ${API_INTEGRATION_TIMEOUT_S - 1}`);
      }
      timeoutOf.set(r.handler, Math.max(timeout, timeoutOf.get(r.handler) ?? 0));
    }

    const originCheckers = new Set(routeTable.filter(checksOrigin).map((r) => r.handler));
    for (const r of routeTable) {
      const fn =
        this.functions.get(r.handler) ??
        tableFunction(
          r.handler,
          accessOf.get(r.handler)!,
          Duration.seconds(timeoutOf.get(r.handler)!),
          `${r.method} ${r.path}`,
          originCheckers.has(r.handler) ? originEnv : undefined,
        );
      this.resourceFor(r.path).addMethod(r.method, new apigateway.LambdaIntegration(fn, { proxy: true }), authorizerFor(r.auth));
    }

    const pipeline = this.webhookPipeline(tableFunction, props.alarmTopic);
    // Routes that queue deliveries (resend, replay): the queue's URL and send rights, nothing more.
    for (const handler of new Set(routeTable.filter((r) => r.queue).map((r) => r.handler))) {
      const fn = this.functions.get(handler)!;
      pipeline.deliveryQueue.grantSendMessages(fn);
      fn.addEnvironment('WEBHOOK_QUEUE_URL', pipeline.deliveryQueue.queueUrl);
      fn.addEnvironment('WEBHOOK_DLQ_URL', pipeline.deliveryDlq.queueUrl);
    }
    this.deliveryQueue = pipeline.deliveryQueue;
    this.deliveryDlq = pipeline.deliveryDlq;
    this.streamFailureQueue = pipeline.streamFailureQueue;

    new CfnOutput(this, 'SiteUrl', { value: this.site.url, description: 'The workspace console; the API is under /api on the same origin' });
    new CfnOutput(this, 'ApiUrl', { value: this.api.urlForPath(API_PREFIX), description: 'Base URL of the API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'DeliveryQueueUrl', { value: this.deliveryQueue.queueUrl, description: 'Webhook delivery queue' });
    new CfnOutput(this, 'DeliveryDlqUrl', {
      value: this.deliveryDlq.queueUrl,
      description: 'Webhook deliveries that used up their attempts (inspect, then redrive)',
    });
  }

  /**
   * Table stream -> fan-out -> delivery queue -> delivery -> receiver (design.md, "Webhooks").
   * Both functions report failures per record (style.md habit 6), so one bad record or message
   * is retried on its own; whatever is finally given up on lands in a queue with an alarm.
   */
  private webhookPipeline(
    tableFunction: (module: string, access: TableAccess, timeout: Duration, description: string, environment?: Record<string, string>) => NodejsFunction,
    alarmTopic: sns.ITopic | undefined,
  ) {
    const encrypted = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;
    // 14 days, the SQS maximum: time for an operator to see the alarm, fix the cause and redrive.
    const deliveryDlq = new sqs.Queue(this, 'WebhookDeliveryDlq', { ...encrypted, retentionPeriod: Duration.days(14) });
    const deliveryQueue = new sqs.Queue(this, 'WebhookDeliveryQueue', {
      ...encrypted,
      // Outlives the whole retry schedule (about 28 h, 54 h if receivers keep asking for Retry-After)
      // with room to spare; a message that expired here would vanish without reaching the DLQ.
      retentionPeriod: Duration.days(4),
      // Lambda's guidance for SQS sources: at least six times the function timeout plus the
      // batching window, so a message is not handed out again while a throttled or retried
      // invocation may still be working on it.
      visibilityTimeout: Duration.seconds(DELIVERY_TIMEOUT.toSeconds() * 6 + DELIVERY_BATCHING_WINDOW.toSeconds()),
      deadLetterQueue: {
        queue: deliveryDlq,
        // The function itself dead-letters a message after its last attempt (with the reason as
        // a message attribute), so ordinary failures never reach this count. The redrive only
        // catches messages that crash or time out the function again and again: the receive
        // count is the attempt number, and two receives beyond the last attempt mean the
        // function never got to finish it.
        maxReceiveCount: DELIVERY_ATTEMPTS + 2,
      },
    });
    // The fan-out's stream batches it gave up on. Lambda sends the batch's shard and sequence
    // numbers, not the records; the stream keeps records for 24 h, so replay within a day.
    const streamFailureQueue = new sqs.Queue(this, 'WebhookStreamFailureQueue', { ...encrypted, retentionPeriod: Duration.days(14) });

    const queueEnv = { WEBHOOK_QUEUE_URL: deliveryQueue.queueUrl, WEBHOOK_DLQ_URL: deliveryDlq.queueUrl };

    // Reads tenants and endpoints, writes nothing to the table. Records are handled in order, each
    // with one SQS call per 10 messages: 60 s leaves room for throttling retries, since a timeout
    // re-runs the whole batch and repeats deliveries (receivers deduplicate by event id).
    const fanout = tableFunction(FANOUT_MODULE, 'read', Duration.seconds(60), 'Webhooks: table stream -> delivery queue', queueEnv);
    deliveryQueue.grantSendMessages(fanout);
    fanout.addEventSource(
      new DynamoEventSource(this.table, {
        // Events start when the pipeline exists; there is nothing to replay from before.
        startingPosition: lambda.StartingPosition.LATEST,
        batchSize: 100,
        // A failing record is isolated by halving the batch, retried 5 times, and dropped to the
        // failure queue after a day at most (the stream would lose it after 24 h anyway).
        bisectBatchOnError: true,
        retryAttempts: 5,
        maxRecordAge: Duration.days(1),
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(streamFailureQueue),
        // Only changes that are webhook events invoke the function (lib/webhooks/events.ts).
        filters: STREAM_FILTER_PATTERNS.map((pattern) => lambda.FilterCriteria.filter(pattern)),
      }),
    );

    // Confined to webhook partitions ('webhooks' access); no generic table grant.
    const delivery = tableFunction(DELIVERY_MODULE, 'webhooks', DELIVERY_TIMEOUT, 'Webhooks: delivery queue -> receivers', queueEnv);
    // Includes sqs:ChangeMessageVisibility, which the function itself (not only the event source
    // mapping) calls to hold a failed message back for its next retry delay; the stack test pins it.
    deliveryQueue.grantConsumeMessages(delivery);
    deliveryDlq.grantSendMessages(delivery);
    // Replay jobs queue the missed events (and continue themselves); endpoint_disabled events.
    deliveryQueue.grantSendMessages(delivery);
    delivery.addEventSource(
      new SqsEventSource(deliveryQueue, {
        batchSize: 10,
        maxBatchingWindow: DELIVERY_BATCHING_WINDOW,
        reportBatchItemFailures: true,
        // No maxConcurrency: a cap would let one tenant's slow receivers (15 s per attempt) hold
        // up every other tenant's deliveries.
      }),
    );

    // Anything in either queue needs a person: a webhook given up on, or events never enqueued.
    const alarmOn = (id: string, queue: sqs.Queue, what: string) => {
      const alarm = queue
        .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: cloudwatch.Stats.MAXIMUM })
        .createAlarm(this, id, {
          alarmDescription: `${what}. Inspect the messages in the queue, fix the cause, then redrive or delete them.`,
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          // An idle, empty queue publishes no data points.
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        });
      if (alarmTopic) alarm.addAlarmAction(new cloudwatchActions.SnsAction(alarmTopic));
      return alarm;
    };
    alarmOn('WebhookDeliveryDlqAlarm', deliveryDlq, 'Webhook deliveries were dead-lettered after their last attempt');
    alarmOn('WebhookStreamFailureAlarm', streamFailureQueue, 'Table stream batches were not fanned out to webhooks');

    return { deliveryQueue, deliveryDlq, streamFailureQueue };
  }

  /** The API resource for a path such as `/api/v1/candidates/{id}`, creating missing segments. */
  private resourceFor(routePath: string): apigateway.IResource {
    let resource: apigateway.IResource = this.api.root;
    for (const segment of routePath.split('/').filter(Boolean)) {
      resource = resource.getResource(segment) ?? resource.addResource(segment);
    }
    return resource;
  }
}
