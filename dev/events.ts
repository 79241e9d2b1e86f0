/** Lambda-shaped events and contexts, as API Gateway (REST, proxy integration) builds them. */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, APIGatewayTokenAuthorizerEvent, Context } from 'aws-lambda';

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_API_ID = 'local';
export const LOCAL_STAGE = 'prod';
export const LOCAL_REGION = 'us-east-1';

export const methodArn = (method: string, path: string) =>
  `arn:aws:execute-api:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${LOCAL_API_ID}/${LOCAL_STAGE}/${method}${path}`;

export function tokenAuthorizerEvent(authorization: string, method: string, path: string): APIGatewayTokenAuthorizerEvent {
  return { type: 'TOKEN', authorizationToken: authorization, methodArn: methodArn(method, path) };
}

export interface IncomingRequest {
  method: string;
  path: string;
  /** The route's resource template, e.g. /api/v1/webhooks/{id}. */
  resource: string;
  pathParameters: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  search: URLSearchParams;
  body: string | null;
  sourceIp: string;
  authorizer?: Record<string, unknown>;
  /** Fixed values make sample events reproducible; by default, fresh ones. */
  requestId?: string;
  requestTimeEpoch?: number;
}

export function proxyEvent(req: IncomingRequest): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    headers[name] = values.join(', ');
    multiValueHeaders[name] = values;
  }
  // No prototype: a parameter named __proto__ or constructor must be just a parameter.
  const query: Record<string, string> = Object.create(null);
  const multiQuery: Record<string, string[]> = Object.create(null);
  for (const [k, v] of req.search) {
    query[k] = v; // API Gateway keeps the last value
    (multiQuery[k] ??= []).push(v);
  }
  const hasQuery = Object.keys(query).length > 0;
  const now = Date.now();
  return {
    resource: req.resource,
    path: req.path,
    httpMethod: req.method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: Object.keys(req.pathParameters).length ? req.pathParameters : null,
    stageVariables: null,
    body: req.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: LOCAL_ACCOUNT,
      apiId: LOCAL_API_ID,
      authorizer: req.authorizer ?? null,
      protocol: 'HTTP/1.1',
      httpMethod: req.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: req.sourceIp,
        user: null,
        userAgent: headers['user-agent'] ?? null,
        userArn: null,
      },
      // As behind a custom domain: the stage is not part of the path.
      path: req.path,
      stage: LOCAL_STAGE,
      requestId: req.requestId ?? randomUUID(),
      requestTimeEpoch: req.requestTimeEpoch ?? now,
      resourceId: 'local',
      resourcePath: req.resource,
    },
  };
}

/** The REQUEST authorizer's event: the proxy event's request data, no body. */
export function requestAuthorizerEvent(event: APIGatewayProxyEvent, arn: string): APIGatewayRequestAuthorizerEvent {
  const { body: _body, isBase64Encoded: _b64, ...rest } = event;
  return {
    ...rest,
    type: 'REQUEST',
    methodArn: arn,
    requestContext: { ...rest.requestContext, authorizer: undefined },
  } as APIGatewayRequestAuthorizerEvent;
}

export function lambdaContext(functionName: string, timeoutMs = 10_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
