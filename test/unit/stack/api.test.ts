/**
 * The deployed stack as synthesized (test/unit/stack/fixture.ts). This file: the API: one guarded
 * method per route with the authorizer of its auth kind, the gateway error bodies, the stage
 * (throttling, access log) and the stack outputs.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORS_HEADERS } from '../../../lib/applications/cors';
import { GATEWAY_ERRORS } from '../../../lib/gateway-responses';
import { API_PREFIX } from '../../../lib/routes';
import { PROJECT_ROOT } from '../../../infra/constructs/table-function';
import { SESSION_AUTHORIZER_MODULE, TOKEN_AUTHORIZER_MODULE } from '../../../infra/constructs/route-api';
import {
  authorizerFunctionId,
  deliveryDlqId,
  deliveryQueueId,
  functionIn,
  getAtts,
  label,
  methodFor,
  methods,
  ofType,
  pascal,
  PUBLIC_ROUTES,
  resources,
  ROUTES,
  SESSION_ROUTES,
  sessionAuthorizerFunctionId,
  sessionAuthorizerId,
  tableId,
  template,
  tokenAuthorizerId,
} from './fixture';

describe('API routes', () => {
  it('has exactly the methods of the route table, and the preflight of its cors lines, nothing else', () => {
    const preflights = ROUTES.filter((r) => r.cors).map((r) => `OPTIONS ${r.path}`);
    expect(preflights).toContain('OPTIONS /api/boards/{slug}/jobs/{id}/applications');
    expect([...methods().keys()].sort()).toEqual([...ROUTES.map((r) => `${r.method} ${r.path}`), ...preflights].sort());
  });

  it("a cors line's preflight is a mock answering 204 with the headers its function sends", () => {
    for (const r of ROUTES.filter((x) => x.cors)) {
      const m = methods().get(`OPTIONS ${r.path}`);
      expect(m, `no preflight for ${r.path}`).toBeDefined();
      expect(m.AuthorizationType).toBe('NONE');
      expect(m.Integration.Type).toBe('MOCK');
      const answer = m.Integration.IntegrationResponses[0];
      expect(answer.StatusCode).toBe('204');
      expect(answer.ResponseParameters).toMatchObject({
        'method.response.header.Access-Control-Allow-Origin': `'${CORS_HEADERS['Access-Control-Allow-Origin']}'`,
        'method.response.header.Access-Control-Allow-Headers': `'${CORS_HEADERS['Access-Control-Allow-Headers']}'`,
        'method.response.header.Access-Control-Allow-Methods': `'${CORS_HEADERS['Access-Control-Allow-Methods'].replace(', ', ',')}'`,
        'method.response.header.Access-Control-Max-Age': `'${CORS_HEADERS['Access-Control-Max-Age']}'`,
      });
    }
  });

  it('every route is a Lambda proxy integration of its own handler module', () => {
    for (const r of ROUTES) {
      const m = methodFor(r);
      expect(m.Integration.Type).toBe('AWS_PROXY');
      const fn = functionIn(m.Integration.Uri);
      // Construct ids come from the handler module name (list-candidates -> ListCandidates).
      const pascal = r.handler
        .split('-')
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join('');
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
    // The OpenAPI document, sign-in, the public job board, the careers pages, the application to a job, its CV upload (each also
    // as the careers page's own form route) and its withdraw link.
    expect(PUBLIC_ROUTES.map(label).sort()).toEqual(
      [
        'GET /api/v1/openapi.json',
        'POST /api/session',
        'GET /api/boards/{slug}/jobs',
        'GET /api/boards/{slug}/jobs/{id}',
        'POST /api/boards/{slug}/jobs/{id}/applications',
        'POST /api/boards/{slug}/jobs/{id}/uploads',
        'GET /careers/{slug}',
        'GET /careers/{slug}/jobs/{id}',
        'POST /careers/{slug}/jobs/{id}/apply',
        'POST /careers/{slug}/jobs/{id}/cv',
        'GET /careers/{slug}/withdraw',
        'POST /careers/{slug}/withdraw',
      ].sort(),
    );
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
    const preflights = ROUTES.filter((r) => r.cors).map((r) => `OPTIONS ${r.path}`);
    expect(open.sort()).toEqual([...PUBLIC_ROUTES.map(label), ...preflights].sort());
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
    expect(r.ResponseTemplates).toEqual({
      'application/json': JSON.stringify({ error: GATEWAY_ERRORS.unauthorized.error, code: 'unauthorized' }),
    });
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
      expect.objectContaining({
        HttpMethod: '*',
        ResourcePath: '/*',
        ThrottlingRateLimit: 50,
        ThrottlingBurstLimit: 100,
        DataTraceEnabled: false,
      }),
    );
    const format: string = p.AccessLogSetting.Format;
    expect(getAtts(p.AccessLogSetting.DestinationArn).every((id) => resources[id]!.Type === 'AWS::Logs::LogGroup')).toBe(true);
    for (const field of [
      '$context.requestId',
      '$context.identity.sourceIp',
      '$context.httpMethod',
      '$context.status',
      '$context.responseLatency',
    ]) {
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
