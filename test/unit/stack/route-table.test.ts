/**
 * The deployed stack as synthesized (test/unit/stack/fixture.ts). This file: the route table drives
 * the stack: routes added or removed in a table of their own (template-only synths, no bundling)
 * become methods, authorizers and functions, or are refused.
 *
 * The added routes go into ONE table, synthesized once for the tests that read it: each test
 * looks only at its own route and at what the table's other additions leave alone (they all
 * reuse get-pipeline's module on paths of their own, none open, none with CORS). A refused table
 * throws before any construct is made (infra/constructs/route-api.ts), so its cases cost no synth.
 */
import { describe, expect, it } from 'vitest';
import { API_PREFIX, type Route } from '../../../lib/routes';
import { API_INTEGRATION_TIMEOUT_S, SESSION_AUTHORIZER_MODULE, TOKEN_AUTHORIZER_MODULE } from '../../../infra/constructs/route-api';
import {
  appFunctions,
  authorizerOfType,
  extraFunctionCount,
  functionOf,
  label,
  methods,
  ofType,
  pascal,
  PIPELINE_MODULES,
  PUBLIC_ROUTES,
  ROUTES,
  SESSION_ROUTES,
  synthTemplate,
} from './fixture';

describe('route table drives the stack', () => {
  const synthWithout = (table: readonly Route[]) => synthTemplate({ routes: table });
  const pipelineRoute = ROUTES.find((r) => r.handler === 'get-pipeline')!;

  const withId: Route = { ...pipelineRoute, path: `${API_PREFIX}/pipeline/{id}` };
  const me: Route = { ...pipelineRoute, path: '/api/session/me', auth: 'session', scope: undefined };
  const health: Route = { ...pipelineRoute, path: `${API_PREFIX}/health`, auth: 'none', scope: undefined };
  const slower: Route = { ...pipelineRoute, path: `${API_PREFIX}/pipeline/slow`, timeoutSeconds: API_INTEGRATION_TIMEOUT_S - 1 };
  const added = [withId, me, health, slower];
  let extended: ReturnType<typeof synthTemplate> | undefined;
  /** The table with every added route, synthesized by the first test that reads it. */
  const withAdded = () => {
    extended ??= synthWithout([...ROUTES, ...added]);
    return extended;
  };

  it('the added routes reuse one module on paths of their own, none with CORS', () => {
    // What the shared synth's tests rely on to read only their own route.
    expect(new Set(added.map((r) => r.handler))).toEqual(new Set([pipelineRoute.handler]));
    expect(added.filter((r) => r.cors)).toEqual([]);
    expect(new Set([...ROUTES, ...added].map(label)).size).toBe(ROUTES.length + added.length);
  });

  it('a route with a path parameter becomes a nested {id} resource with its method', () => {
    const res = withAdded();
    expect(Object.values(res).some((r) => r.Type === 'AWS::ApiGateway::Resource' && r.Properties.PathPart === '{id}')).toBe(true);
    const keys = [...methods(res).keys()];
    expect(keys).toContain(`GET ${API_PREFIX}/pipeline/{id}`);
    // One method per route, added ones included, and the preflights of the cors lines.
    expect(keys).toHaveLength(ROUTES.length + added.length + ROUTES.filter((r) => r.cors).length);
    // Same module, same function: no duplicate bundle.
    expect(appFunctions(res)).toHaveLength(new Set(ROUTES.map((r) => r.handler)).size + extraFunctionCount());
  });

  it('another session route shares the one REQUEST authorizer on the Cookie header, never cached', () => {
    const res = withAdded();
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
    expect(
      appFunctions(res)
        .map(([fnId]) => fnId)
        .filter((fnId) => fnId.startsWith(`${pascal(SESSION_AUTHORIZER_MODULE)}Fn`)),
    ).toEqual([]);
    expect(appFunctions(res)).toHaveLength(new Set(table.map((r) => r.handler)).size + extraFunctionCount(table));
    expect(extraFunctionCount(table)).toBe(1 + PIPELINE_MODULES.length);
  });

  it('a route added with auth none is open and nothing else becomes open', () => {
    const res = withAdded();
    const open = [...methods(res)].filter(([, m]) => m.AuthorizationType === 'NONE').map(([key]) => key);
    const preflights = ROUTES.filter((r) => r.cors).map((r) => `OPTIONS ${r.path}`);
    expect(open.sort()).toEqual([...[...PUBLIC_ROUTES, health].map(label), ...preflights].sort());
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
    const res = withAdded();
    expect(res[functionOf('get-pipeline', res)]!.Properties.Timeout).toBe(API_INTEGRATION_TIMEOUT_S - 1);
  });

  it('the deployed stack has a REQUEST authorizer exactly when the table has a session route', () => {
    const hasSession = ROUTES.some((r) => r.auth === 'session');
    expect(
      ofType('AWS::ApiGateway::Authorizer')
        .map(([, a]) => a.Properties.Type)
        .sort(),
    ).toEqual(hasSession ? ['REQUEST', 'TOKEN'] : ['TOKEN']);
  });
});
