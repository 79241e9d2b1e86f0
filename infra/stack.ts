/**
 * The deployed shape: one DynamoDB table derived from TABLE_DEF, one REST API whose resources,
 * methods and Lambda functions are generated from the route table, and the authorizers that
 * guard them. Adding a route to lib/routes.ts needs no change here.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { GATEWAY_ERRORS } from '../lib/gateway-responses';
import { API_PREFIX, routes as ROUTE_TABLE, type Route } from '../lib/routes';
import { TABLE_DEF } from '../lib/store/table';

/** Repository root: esbuild's project root and the base of every `functions/<name>.ts` entry. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Module under functions/ of the TOKEN authorizer, and of the REQUEST authorizer once it exists. */
export const TOKEN_AUTHORIZER_MODULE = 'authorizer';
export const SESSION_AUTHORIZER_MODULE = 'session-authorizer';

/** Revoked tokens and sessions must stop working within a minute; the cache is keyed by the credential. */
export const AUTHORIZER_CACHE_TTL = Duration.seconds(60);

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

export type TableAccess = 'none' | 'read' | 'write' | 'authorizer';

/**
 * Exactly the DynamoDB actions the code uses. grantReadData would add Scan, which no request
 * path may use; TransactWriteItems is authorised by the Put/Update/Delete/ConditionCheck inside it.
 */
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem', 'dynamodb:DescribeTable'];
export const TABLE_ACTIONS: Record<TableAccess, string[]> = {
  none: [],
  read: READ_ACTIONS,
  write: [...READ_ACTIONS, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  // Plus UpdateItem restricted to the usage timestamps (see TableFunction).
  authorizer: READ_ACTIONS,
};
/** The only attributes an authorizer may write: when a token or session was last used. */
export const AUTHORIZER_WRITABLE = ['PK', 'SK', 'last_used_at', 'last_seen_at'];
const ACCESS_RANK: TableAccess[] = ['none', 'read', 'authorizer', 'write'];

export interface TableFunctionProps {
  /** Module under functions/ that exports `handler`. */
  module: string;
  table: dynamodb.ITable;
  /** What the function may do to the table (TABLE_ACTIONS). */
  access: TableAccess;
  timeout: Duration;
  description?: string;
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
      },
    });
    if (TABLE_ACTIONS[props.access].length) props.table.grant(this.fn, ...TABLE_ACTIONS[props.access]);
    if (props.access === 'authorizer') {
      this.fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['dynamodb:UpdateItem'],
          resources: [props.table.tableArn],
          conditions: {
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': AUTHORIZER_WRITABLE },
            StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
          },
        }),
      );
    }
  }
}

/** A gateway response template is VTL: a `$` or `#` would be interpreted, so refuse them. */
export function gatewayErrorTemplate(error: string): string {
  const body = JSON.stringify({ error });
  if (/[$#\\]/.test(body)) throw new Error(`Gateway error message needs VTL escaping: ${error}`);
  return body;
}

/** API Gateway's own refusals, answered with the same `{ error }` body the handlers use. */
const GATEWAY_RESPONSES: ReadonlyArray<{ type: apigateway.ResponseType; id: string; status?: number; error: string }> = [
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
}

export class TalentPipelineStack extends Stack {
  readonly table: dynamodb.Table;
  readonly api: apigateway.RestApi;
  /** The function behind each handler module, authorizers included. */
  readonly functions = new Map<string, NodejsFunction>();

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

    for (const r of GATEWAY_RESPONSES) {
      this.api.addGatewayResponse(r.id, {
        type: r.type,
        statusCode: r.status?.toString(),
        responseHeaders: {
          'Content-Type': "'application/json'",
          'Cache-Control': "'no-store'",
          // RFC 6750: a 401 names the scheme the client should use.
          ...(r.type === apigateway.ResponseType.UNAUTHORIZED && { 'WWW-Authenticate': "'Bearer'" }),
        },
        templates: { 'application/json': gatewayErrorTemplate(r.error) },
      });
    }

    const tableFunction = (module: string, access: TableAccess, timeout: Duration, description: string) => {
      const fn = new TableFunction(this, pascal(module), { module, table: this.table, access, timeout, description }).fn;
      this.functions.set(module, fn);
      return fn;
    };

    // A cache hit skips the function, so the policy it returns covers every route the token may
    // call (lib/auth/policy.ts). One DynamoDB GetItem: 5 s is generous and fails fast to a 500.
    const tokenAuthorizer = new apigateway.TokenAuthorizer(this, 'TokenAuthorizer', {
      handler: tableFunction(TOKEN_AUTHORIZER_MODULE, 'authorizer', Duration.seconds(5), 'TOKEN authorizer for API tokens'),
      identitySource: apigateway.IdentitySource.header('Authorization'),
      resultsCacheTtl: AUTHORIZER_CACHE_TTL,
    });
    // Session routes (cookie) get a REQUEST authorizer, created only once such a route exists.
    const sessionAuthorizer = routeTable.some((r) => r.auth === 'session')
      ? new apigateway.RequestAuthorizer(this, 'SessionRequestAuthorizer', {
          handler: tableFunction(SESSION_AUTHORIZER_MODULE, 'authorizer', Duration.seconds(5), 'REQUEST authorizer for cookie sessions'),
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
    // any of them needs.
    const accessOf = new Map<string, TableAccess>();
    for (const r of routeTable) {
      if (r.handler === TOKEN_AUTHORIZER_MODULE || r.handler === SESSION_AUTHORIZER_MODULE) {
        throw new Error(`Route ${r.method} ${r.path} uses an authorizer module as its handler`);
      }
      const current = accessOf.get(r.handler) ?? 'none';
      accessOf.set(r.handler, ACCESS_RANK.indexOf(r.access) > ACCESS_RANK.indexOf(current) ? r.access : current);
    }

    for (const r of routeTable) {
      const fn =
        this.functions.get(r.handler) ??
        tableFunction(r.handler, accessOf.get(r.handler)!, Duration.seconds(10), `${r.method} ${r.path}`);
      this.resourceFor(r.path).addMethod(r.method, new apigateway.LambdaIntegration(fn, { proxy: true }), authorizerFor(r.auth));
    }

    new CfnOutput(this, 'ApiUrl', { value: this.api.urlForPath(API_PREFIX), description: 'Base URL of the API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
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
