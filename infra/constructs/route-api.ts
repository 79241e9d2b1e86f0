/**
 * The REST API generated from the route table (lib/routes.ts): one resource per path, one method
 * per route, one function per handler module, guarded by the TOKEN or REQUEST authorizer, with
 * API Gateway's own refusals answered as `{ error }` and a JSON access log. The route functions
 * live in nested stacks by resource (infra/constructs/route-stacks.ts); the API and its authorizers
 * stay in the stack, with the methods it held before its methods grew nested stacks of their own
 * (infra/constructs/api-method-stacks.ts). Adding a route to lib/routes.ts needs no change here.
 */
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { CORS_HEADERS } from '../../lib/applications/cors';
import type { ErrorCode } from '../../lib/errors';
import { GATEWAY_ERRORS, gatewayErrorBody } from '../../lib/gateway-responses';
import type { Route } from '../../lib/routes';
import type { StageConfig } from '../stages';
import { Concern } from './concern';
import { ACCESS_RANK, pascal, TableFunction, type TableAccess } from './table-function';
import { DELIVERY_MODULE, FANOUT_MODULE } from './webhook-pipeline';
import { IMPORT_WORKER_MODULE } from './import-queue';
import { STUCK_REINDEX_MODULE } from './stuck-reindex';
import { RETENTION_MODULE } from './retention';
import { INTERVIEW_MOVES_MODULE, SCORECARD_REMINDERS_MODULE } from './interview-follow-up';
import { FILE_WORKER_MODULE } from './file-worker';
import { OFFER_EXPIRY_MODULE } from './offer-expiry';
import { SCREENING_REJECTIONS_MODULE } from './screening-rejections';
import { RouteFunctionStack, routeStackIds } from './route-stacks';
import { API_METHOD_STACK_ID, ApiMethodStack, methodStackId } from './api-method-stacks';

/** Module under functions/ of the TOKEN authorizer, and of the REQUEST authorizer once it exists. */
export const TOKEN_AUTHORIZER_MODULE = 'authorizer';
export const SESSION_AUTHORIZER_MODULE = 'session-authorizer';

/** Revoked tokens and sessions must stop working within a minute; the cache is keyed by the credential. */
export const AUTHORIZER_CACHE_TTL = Duration.seconds(60);

/** The API Gateway stage (the path prefix of execute-api URLs); the deployment stage is the stack's. */
export const API_STAGE_NAME = 'prod';

/** Route functions time out after this unless their route sets `timeoutSeconds`. */
export const DEFAULT_ROUTE_TIMEOUT_S = 10;
/** API Gateway gives up on a Lambda integration after 29 s; a route function must end before that. */
export const API_INTEGRATION_TIMEOUT_S = 29;

/** A gateway response template is VTL: a `$` or `#` would be interpreted, so refuse them. */
export function gatewayErrorTemplate(error: string, code: ErrorCode): string {
  const body = gatewayErrorBody({ error, code });
  if (/[$#\\]/.test(body)) throw new Error(`Gateway error message needs VTL escaping: ${error}`);
  return body;
}

/** API Gateway's own refusals, answered with the same `{ error, code }` body the handlers use. */
const GATEWAY_RESPONSES: ReadonlyArray<{ type: apigateway.ResponseType; id: string; status?: number; error: string; code: ErrorCode }> = [
  { type: apigateway.ResponseType.UNAUTHORIZED, id: 'Unauthorized', ...GATEWAY_ERRORS.unauthorized },
  { type: apigateway.ResponseType.ACCESS_DENIED, id: 'AccessDenied', ...GATEWAY_ERRORS.accessDenied },
  // API Gateway reports an unknown path or method as MISSING_AUTHENTICATION_TOKEN (403).
  { type: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN, id: 'NotFound', ...GATEWAY_ERRORS.notFound },
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
/**
 * One JSON object per request; `$context.error.messageString` is already a quoted JSON string.
 * `service` is the stage's service name as a constant: the authorizer-failure metric filter
 * (infra/constructs/monitoring.ts) takes its dimension from it, like the functions' EMF metrics.
 */
const accessLogFormat = (serviceName: string) =>
  apigateway.AccessLogFormat.custom(
    `{${[
      `"service":${JSON.stringify(serviceName)}`,
      ...Object.entries(ACCESS_LOG_FIELDS).map(([k, v]) => `"${k}":"${v}"`),
      `"error":${apigateway.AccessLogField.contextErrorMessageString()}`,
    ].join(',')}}`,
  );

/**
 * Routes whose function reads ORIGIN_VERIFY, to believe CloudFront's viewer headers (lib/edge.ts):
 * the cookie writes, which run the cross-site check as lib/http.ts apiHandler defines them (not a
 * token route, not a GET, not a public `cors` line such as the application, which takes posts from
 * any site, not a careers page's own form), and among them login, whose throttling counts by
 * client address; and the lines that check form tokens (the application, the CV uploads), whose
 * limits count by client address.
 */
const checksOrigin = (r: Route) => (r.auth !== 'token' && r.method !== 'GET' && !r.cors && !r.formToken) || r.formToken === 'check';

export interface RouteApiProps {
  table: dynamodb.ITable;
  routes: readonly Route[];
  /** Where each function is registered under its handler module (the stack's `functions`). */
  functions: Map<string, NodejsFunction>;
  stage: StageConfig;
}

export class RouteApi extends Concern {
  readonly api: apigateway.RestApi;
  /** One JSON line per request (ACCESS_LOG_FIELDS). */
  readonly accessLogs: logs.LogGroup;
  /** The functions that check the origin secret (checksOrigin); verifyOrigin hands it to them. */
  private readonly originCheckers: NodejsFunction[] = [];
  private readonly routes: readonly Route[];
  private readonly functions: Map<string, NodejsFunction>;
  private readonly table: dynamodb.ITable;
  private readonly stage: StageConfig;
  /** The nested stacks of the route functions, by construct id (routeStackIds). */
  readonly routeStacks = new Map<string, RouteFunctionStack>();
  /** The nested stacks of API methods, by construct id (methodStackId). */
  readonly methodStacks = new Map<string, ApiMethodStack>();
  /** Every route's method, in the stack or in a nested stack (TokenRateLimits marks the token ones). */
  readonly methods: apigateway.Method[] = [];

  constructor(scope: Construct, id: string, props: RouteApiProps) {
    super(scope, id);
    this.routes = props.routes;
    this.functions = props.functions;
    this.table = props.table;
    this.stage = props.stage;

    // One function per handler module; a module serving several routes gets the widest access
    // and the longest timeout any of them needs. Checked before any construct is made: a refused
    // table fails at once.
    const accessOf = new Map<string, Route['access']>();
    const timeoutOf = new Map<string, number>();
    for (const r of props.routes) {
      if (r.handler === TOKEN_AUTHORIZER_MODULE || r.handler === SESSION_AUTHORIZER_MODULE) {
        throw new Error(`Route ${r.method} ${r.path} uses an authorizer module as its handler`);
      }
      if (
        [
          FANOUT_MODULE,
          DELIVERY_MODULE,
          STUCK_REINDEX_MODULE,
          RETENTION_MODULE,
          INTERVIEW_MOVES_MODULE,
          SCORECARD_REMINDERS_MODULE,
          SCREENING_REJECTIONS_MODULE,
          OFFER_EXPIRY_MODULE,
          IMPORT_WORKER_MODULE,
          FILE_WORKER_MODULE,
        ].includes(r.handler)
      ) {
        throw new Error(
          `Route ${r.method} ${r.path} uses a background function (webhook pipeline module, stuck re-index, retention run, interview follow-up runs, screening rejections run, offer expiry run, import worker or file worker) as its handler`,
        );
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

    const accessLogs = (this.accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', {
      retention: props.stage.accessLogRetention,
      removalPolicy: props.stage.logRemovalPolicy,
    }));
    this.api = new apigateway.RestApi(this, 'Api', {
      // The stack's name (TalentPipeline-<stage>): API Gateway's metrics are keyed by API name, so
      // two stages in one account must not share one.
      restApiName: Stack.of(this).stackName,
      description: 'Multi-tenant hiring-pipeline API',
      // Regional: clients call it directly; an edge endpoint would add a CloudFront hop we do not manage.
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      // Access logging needs the account-level API Gateway CloudWatch role. Keep it on deletion:
      // it is shared by every API of the account and region.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: API_STAGE_NAME,
        // Stage-wide defaults shared by all tenants: far below the account's 10,000 rps so a
        // runaway client hits 429 before it exhausts the account's Lambda concurrency, and high
        // enough for normal integration traffic. Per-tenant limits would need usage plans.
        throttlingRateLimit: 50,
        throttlingBurstLimit: 100,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: accessLogFormat(props.stage.serviceName),
        // Execution logs at ERROR only: integration and authorizer failures, API Gateway's own
        // view of a 5xx. Data trace would write request headers (the bearer token) to logs.
        dataTraceEnabled: false,
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        // X-Ray: a request's trace starts here and continues in the function (Powertools Tracer).
        tracingEnabled: true,
      },
    });
    // API Gateway writes execution logs to a group of this name, creating it without a retention
    // if it does not exist; created first, here, it keeps the stage's retention.
    const executionLogs = new logs.LogGroup(this, 'ApiExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.api.restApiId}/${API_STAGE_NAME}`,
      retention: props.stage.logRetention,
      removalPolicy: props.stage.logRemovalPolicy,
    });
    this.api.deploymentStage.node.addDependency(executionLogs);
    // The account-wide role API Gateway logs with (one per account and region, shared by all its
    // APIs), so it may write any API's log groups: AWS's managed policy is the documented one.
    Validations.of(this.api.node.findChild('CloudWatchRole')).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        "API Gateway's account-level CloudWatch role is shared by every REST API in the account and region and must write any API's log groups; AmazonAPIGatewayPushToCloudWatchLogs is the policy AWS documents for it.",
    });

    // Bodies, query strings and path parameters are validated by the handlers (lib/http.ts, the
    // route table's zod schemas), so the deployed API and `npm start` refuse a request with the
    // same { error } sentence. API Gateway checks what it can without a second set of rules:
    // every method declares its path parameters as required.
    const validator = this.api.addRequestValidator('Validator', { validateRequestBody: true, validateRequestParameters: true });

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

    // A cache hit skips the function, so the policy it returns covers every route the token may
    // call (lib/auth/policy.ts). One DynamoDB GetItem: 5 s is generous and fails fast to a 500.
    const tokenAuthorizer = new apigateway.TokenAuthorizer(this, 'TokenAuthorizer', {
      handler: this.tableFunction(TOKEN_AUTHORIZER_MODULE, 'token-authorizer', Duration.seconds(5), 'TOKEN authorizer for API tokens'),
      identitySource: apigateway.IdentitySource.header('Authorization'),
      resultsCacheTtl: AUTHORIZER_CACHE_TTL,
    });
    // Session routes (cookie) get a REQUEST authorizer, created only once such a route exists.
    const sessionAuthorizer = props.routes.some((r) => r.auth === 'session')
      ? new apigateway.RequestAuthorizer(this, 'SessionRequestAuthorizer', {
          handler: this.tableFunction(
            SESSION_AUTHORIZER_MODULE,
            'session-authorizer',
            Duration.seconds(5),
            'REQUEST authorizer for cookie sessions',
          ),
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

    const stackIds = routeStackIds(props.routes);
    const routeStack = (module: string): RouteFunctionStack => {
      const stackId = stackIds.get(module)!;
      const existing = this.routeStacks.get(stackId);
      if (existing) return existing;
      const created = new RouteFunctionStack(this, stackId);
      this.routeStacks.set(stackId, created);
      return created;
    };
    const methodStack = (id: string): ApiMethodStack => {
      const existing = this.methodStacks.get(id);
      if (existing) return existing;
      const created = new ApiMethodStack(this, id, this.api);
      this.methodStacks.set(id, created);
      // The stage's deployment must follow these methods as it follows its own: it waits for
      // them, and a change of theirs gives it a new logical id (below), so the stage is deployed again.
      this.api.latestDeployment?.node.addDependency(created);
      return created;
    };
    // A nested stack sees the validator and authorizers by id: a method naming the Authorizer
    // construct itself would attach it to the imported API, a second RestApi to CDK.
    const nestedValidator = new Map<string, apigateway.IRequestValidator>();
    const nestedAuthorizer = (auth: Route['auth']): apigateway.MethodOptions => {
      const options = authorizerFor(auth);
      if (!options.authorizer) return options;
      // Attached here, since no method attaches it: an authorizer that only nested methods use
      // would otherwise have no API to name.
      if (apigateway.Authorizer.isAuthorizer(options.authorizer)) options.authorizer._attachToApi(this.api);
      const { authorizerId, authorizationType } = options.authorizer;
      return { authorizationType, authorizer: { authorizerId, authorizationType } };
    };
    const invoker = new iam.ServicePrincipal('apigateway.amazonaws.com');
    // The stack's own methods first: a nested method then finds every path segment they create.
    const ordered = [...props.routes.filter((r) => !methodStackId(r)), ...props.routes.filter((r) => methodStackId(r))];
    for (const r of ordered) {
      const fn =
        this.functions.get(r.handler) ??
        this.tableFunction(
          r.handler,
          accessOf.get(r.handler)!,
          Duration.seconds(timeoutOf.get(r.handler)!),
          `${r.method} ${r.path}`,
          routeStack(r.handler),
        );
      const pathParams = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      // LambdaIntegration would put its invoke permission beside the method, in this stack; this
      // one goes beside the function, in its nested stack. The same ARN as a proxy integration's.
      // It reaches this stack as a nested stack output named after the function's construct path,
      // so replacing the function changes this template, and with it the deployment's logical id:
      // the stage is deployed again and never calls a deleted function.
      const homeId = methodStackId(r);
      const home = homeId ? methodStack(homeId) : undefined;
      if (home && !nestedValidator.has(homeId!)) {
        nestedValidator.set(homeId!, apigateway.RequestValidator.fromRequestValidatorId(home, 'Validator', validator.requestValidatorId));
      }
      const requestParameters = Object.fromEntries(pathParams.map((p) => [`method.request.path.${p}`, true]));
      const method = (home ? home.resourceFor(r.path, this.api.root) : this.resourceFor(r.path)).addMethod(
        r.method,
        new apigateway.AwsIntegration({ proxy: true, service: 'lambda', path: `2015-03-31/functions/${fn.functionArn}/invocations` }),
        home
          ? { ...nestedAuthorizer(r.auth), requestValidator: nestedValidator.get(homeId!), requestParameters }
          : { ...authorizerFor(r.auth), requestValidator: validator, requestParameters },
      );
      this.methods.push(method);
      // What the stage's deployment would hash for a method of its own API: the route as the table
      // says it, and the function by construct path (replacing it changes the path).
      if (home) {
        this.api.latestDeployment?.addToLogicalId({
          nestedMethod: { stack: homeId, method: r.method, path: r.path, auth: r.auth, requestParameters, function: fn.node.path },
        });
      }
      // Only this method of this stage may invoke it. No test-invoke permission: it would double
      // the permissions, and only the console's "Test" button needs it. The stage by name, not by
      // reference: the stage depends on the methods, which depend on the function's stack.
      fn.addPermission(`ApiPermission${r.method}${pascal(r.path)}`, {
        principal: invoker,
        sourceArn: this.api.arnForExecuteApi(r.method, r.path.replace(/\{[^}]*\}/g, '*'), API_STAGE_NAME),
      });
      Validations.of(method).acknowledge(
        r.auth === 'none'
          ? {
              id: 'AwsSolutions-APIG4',
              reason: `${r.method} ${r.path} is public by design (route table auth: none): sign-in, or the OpenAPI document.`,
            }
          : {
              id: 'AwsSolutions-COG4',
              reason: `${r.method} ${r.path} is guarded by the ${r.auth === 'token' ? 'TOKEN authorizer (workspace API tokens with scopes)' : 'REQUEST authorizer (console session cookie)'}; identities live in the table, not in Cognito.`,
            },
      );
      if (r.auth === 'none') {
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-COG4',
          reason: `${r.method} ${r.path} is public by design: no authorizer of any kind.`,
        });
      }
    }

    // A `cors` line takes JSON posts from other sites' browser code, which asks first: API
    // Gateway answers the preflight itself (a mock integration), with the headers the function
    // sends on every answer (lib/applications/cors.ts), so no function runs for it.
    // A method the stack did not hold, it lives with the nested routes' (api-method-stacks.ts).
    for (const r of props.routes.filter((x) => x.cors)) {
      const preflight = methodStack(API_METHOD_STACK_ID)
        .resourceFor(r.path, this.api.root)
        .addCorsPreflight({
          allowOrigins: [CORS_HEADERS['Access-Control-Allow-Origin']],
          allowMethods: CORS_HEADERS['Access-Control-Allow-Methods'].split(', '),
          allowHeaders: CORS_HEADERS['Access-Control-Allow-Headers'].split(', '),
          maxAge: Duration.seconds(Number(CORS_HEADERS['Access-Control-Max-Age'])),
        });
      this.api.latestDeployment?.addToLogicalId({ nestedPreflight: { path: r.path, headers: CORS_HEADERS } });
      Validations.of(preflight).acknowledge(
        { id: 'AwsSolutions-APIG4', reason: `OPTIONS ${r.path} is the CORS preflight of a public route: a mock, no function, no data.` },
        { id: 'AwsSolutions-COG4', reason: `OPTIONS ${r.path} is the CORS preflight of a public route: no authorizer of any kind.` },
      );
    }

    // The origin secret's readers, known once the functions exist (ConsoleSite needs the API first).
    for (const handler of new Set(props.routes.filter(checksOrigin).map((r) => r.handler))) {
      this.originCheckers.push(this.functions.get(handler)!);
    }
  }

  /** Hands the CloudFront origin secret to the functions that check it (lib/edge.ts). */
  verifyOrigin(originVerify: string): void {
    for (const fn of this.originCheckers) fn.addEnvironment('ORIGIN_VERIFY', originVerify);
  }

  /** The functions of the routes a predicate picks, each once. */
  functionsOf(pick: (r: Route) => boolean): NodejsFunction[] {
    return [...new Set(this.routes.filter(pick).map((r) => this.functions.get(r.handler)!))];
  }

  private tableFunction(
    module: string,
    access: TableAccess,
    timeout: Duration,
    description: string,
    scope: Construct = this,
  ): NodejsFunction {
    const fn = new TableFunction(scope, pascal(module), { module, table: this.table, access, timeout, description, stage: this.stage }).fn;
    this.functions.set(module, fn);
    return fn;
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
