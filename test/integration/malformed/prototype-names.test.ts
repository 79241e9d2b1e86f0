/**
 * Hostile input through the local gateway (test/integration/malformed/fixture.ts). This file: query
 * parameters named like Object.prototype members (constructor, toString, __proto__) on every route,
 * through the local gateway and straight into the handlers as deployed.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Route } from '../../../lib/routes';
import { credentialsFor, isErrorBody, label, ROUTES, stack, validBody } from './fixture';

describe('query parameters named like Object.prototype members', () => {
  const NAMES = ['constructor', 'toString', '__proto__'];

  // Regression: infra/local/events.ts proxyEvent once did `(multiQuery[k] ??= []).push(v)` on a
  // plain object, which finds Object.prototype.constructor / .toString (and Object.prototype
  // itself for __proto__), so `.push` was not a function and the request was never answered.
  // Every route gets the credentials it needs, so the request reaches its handler.
  it('the local gateway answers ?constructor=x, ?toString=x, ?__proto__=x on every route, below 500', async () => {
    const attempts = ROUTES.flatMap((r) =>
      NAMES.map(async (name) => {
        const what = `${label(r)}?${name}=x`;
        const body = r.method === 'GET' ? undefined : JSON.stringify(validBody(r));
        const limitMs = 1_500;
        try {
          const res = await fetch(`${stack.url}${r.path.replace(/\{[^}]+\}/g, randomUUID())}?${name}=x`, {
            method: r.method,
            headers: { ...(await credentialsFor(r)), ...(body && { 'Content-Type': 'application/json' }) },
            body,
            signal: AbortSignal.timeout(limitMs),
          });
          const text = await res.text();
          if (res.status >= 500) return `${what}: ${res.status} ${text}`;
          if (res.status >= 300 && !isErrorBody(JSON.parse(text))) return `${what}: ${res.status} body ${text}`;
          // Credentials were right: nothing may stop at the authorizer.
          if (res.status === 401 || res.status === 403) return `${what}: ${res.status} ${text}`;
          return undefined;
        } catch (err) {
          return `${what}: no answer within ${limitMs / 1000} s (${(err as Error).name})`;
        }
      }),
    );
    expect((await Promise.all(attempts)).filter(Boolean)).toEqual([]);
  });

  it('the handlers (as deployed behind API Gateway) refuse them on GET routes with a query schema with 400 unknown query field, and the others ignore them', async () => {
    const { lambdaContext, proxyEvent } = await import('../../../infra/local/events');
    const other = await stack.tenant();
    const user = await other.user('admin');
    // What each authorizer puts in the context (functions/authorizer.ts, session-authorizer.ts).
    const contextFor = (r: Route) =>
      r.auth === 'token'
        ? { tenantId: other.id, tenantSlug: other.slug, scopes: '*', principalId: 'test' }
        : r.auth === 'session'
          ? { tenantId: other.id, tenantSlug: other.slug, userId: user.id, email: user.email, role: 'admin', principalId: user.id }
          : undefined;
    const getRoutes = ROUTES.filter((x) => x.method === 'GET');
    expect(getRoutes.some((r) => r.query)).toBe(true);
    expect(getRoutes.some((r) => !r.query)).toBe(true);
    for (const r of getRoutes) {
      const { handler } = (await import(`../../../functions/${r.handler}.ts`)) as {
        handler: (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }>;
      };
      const pathParameters = Object.fromEntries([...r.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, randomUUID()]));
      const path = r.path.replace(/\{(\w+)\}/g, (_, name: string) => pathParameters[name]!);
      for (const name of NAMES) {
        const event = proxyEvent({
          method: r.method, path, resource: r.path, pathParameters, headers: {},
          search: new URLSearchParams(), body: null, sourceIp: '127.0.0.1',
          authorizer: contextFor(r),
        });
        // What the Lambda runtime hands over: the event is parsed JSON, so these are own keys.
        const parsed = JSON.parse(
          JSON.stringify(event).replace('"queryStringParameters":null', `"queryStringParameters":{"${name}":"x"}`)
            .replace('"multiValueQueryStringParameters":null', `"multiValueQueryStringParameters":{"${name}":["x"]}`),
        );
        expect(Object.keys(parsed.queryStringParameters)).toEqual([name]);
        const res = await handler(parsed, lambdaContext(r.handler));
        if (r.query) {
          expect([res.statusCode, JSON.parse(res.body)], `${label(r)}?${name}=x`).toEqual([400, { error: `unknown query field "${name}"`, code: 'invalid_field', field: name }]);
        } else if (r.params) {
          // No query schema: the query string is not read at all; the random id is not found.
          expect([res.statusCode, JSON.parse(res.body).error], `${label(r)}?${name}=x: ${res.body}`).toEqual([404, expect.stringMatching(/not found$/)]);
        } else {
          // No query schema: the query string is not read at all.
          expect(res.statusCode, `${label(r)}?${name}=x: ${res.body}`).toBe(r.status);
          expect(Object.keys(JSON.parse(res.body)), `${label(r)}?${name}=x`).not.toContain('error');
        }
      }
    }
  });
});
