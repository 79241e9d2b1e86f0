/**
 * Hostile input through the local gateway (test/integration/malformed/fixture.ts). This file: the
 * sweeps over every route of the table (lib/routes.ts).
 *
 * First, every route gets the same hostile query strings, headers and cookies (and, when it takes
 * a body, hostile bodies and content types; when it has a path parameter, hostile path values).
 * Whatever the input, the answer is never a 5xx, and every non-2xx body is exactly
 * `{ error: string, code, field? }`.
 *
 * Then query parameters named like Object.prototype members (constructor, toString, __proto__) on
 * every route, through the local gateway and straight into the handlers as deployed. Those
 * requests go 8 at a time, each given 5 s: the bug they guard against left a request unanswered,
 * and 114 at once with 1.5 s each timed out by the dozen on two busy cores (a full `npm test`, or
 * this file alone), without any bug.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GATEWAY_ERRORS } from '../../../lib/gateway-responses';
import type { Route } from '../../../lib/routes';
import { PASSWORD } from '../../helpers/stack';
import { casesFor, type Case } from './cases';
import { cookie, credentialsFor, isErrorBody, label, ROUTES, send, sessionUser, stack, validBody } from './fixture';
import { lambdaContext, proxyEvent } from '../../../dev/events';

/**
 * The cases of a route, 8 in flight at a time, answers in case order. A sweep checks answers, it
 * is not a load test: 85 creates at once all update the workspace's counter item in their
 * transactions, and on two busy cores the last of them waited past the route's 10 s.
 */
async function inPool<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, size = 8): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
    }),
  );
  return out;
}

describe('hostile input sweep', () => {
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();

  for (const r of ROUTES) {
    it(`${label(r)}: never 5xx, every refusal is exactly { error, code, field? }`, async () => {
      const cases = casesFor(r);
      expect(cases.length).toBeGreaterThan(30);
      const baseline = await send(r, { name: 'baseline' });
      // A plain valid request reaches the handler: it succeeds, or the handler (not the
      // gateway) says that the random id it names is not found.
      const hint = `${label(r)}: a plain valid request must reach its handler (a new route needs its body in validBody()): ${baseline.text.slice(0, 200)}`;
      if (baseline.status === 404) expect(baseline.body, hint).not.toEqual({ error: GATEWAY_ERRORS.notFound.error, code: 'not_found' });
      if (r.path === '/api/session/password')
        expect([baseline.status, baseline.body], hint).toEqual([
          400,
          { error: 'current_password is incorrect', code: 'invalid_field', field: 'current_password' },
        ]);
      else if (label(r) === 'POST /api/members')
        expect([baseline.status, baseline.body], hint).toEqual([
          409,
          { error: `${sessionUser.email} is already a member of this workspace`, code: 'conflict', field: 'email' },
        ]);
      // The shared session is fully signed in: it has no second step to take.
      else if (r.path === '/api/session/two-factor') expect([baseline.status, baseline.body.code], hint).toEqual([409, 'conflict']);
      // Not six digits: refused before anything is read.
      else if (r.path === '/api/account/two-factor/confirm') expect([baseline.status, baseline.body.field], hint).toEqual([400, 'code']);
      else expect([r.status, 404], hint).toContain(baseline.status);
      // Login counts every attempt in flight towards the lockout (so parallel guesses cannot
      // slip past it); valid logins are therefore sent one at a time.
      const results: (readonly [Case, Awaited<ReturnType<typeof send>>])[] = [];
      if (r.path === '/api/session') for (const c of cases) results.push([c, await send(r, c)] as const);
      else if (label(r) === 'POST /api/webhooks') {
        // Each accepted case creates an endpoint, and a workspace may have 20 active ones: the
        // cases go one at a time and each endpoint made is deleted again, so the cap is never
        // what answers.
        for (const c of cases) {
          const res = await send(r, c);
          results.push([c, res] as const);
          if (res.status === 201) {
            const del = await stack.call('DELETE', `/api/webhooks/${res.body.webhook.id}`, { headers: { Cookie: cookie } });
            expect(del.status, del.text).toBe(200);
          }
        }
      } else results.push(...(await inPool(cases, async (c) => [c, await send(r, c)] as const)));
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      for (const [c, res] of results) {
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${c.name}: ${res.status} ${res.text.slice(0, 200)}`);
        else if ((res.status < 200 || res.status >= 300) && !isErrorBody(res.body) && !(r.html && res.text.startsWith('<!doctype html>'))) {
          // A careers page refuses with the not-found page; a path the gateway cannot decode is
          // refused by the gateway itself, with its JSON, as API Gateway does.
          failures.push(`${c.name}: ${res.status} body is not ${r.html ? 'a page' : '{ error: string }'}: ${res.text.slice(0, 200)}`);
        }
        // Without a query schema the query string is ignored: the answer is the baseline's.
        if (!r.query && c.query !== undefined && res.status !== baseline.status) {
          failures.push(`${c.name}: ${res.status}, not ${baseline.status} as without a query: ${res.text.slice(0, 200)}`);
        }
      }
      expect(failures).toEqual([]);
      // The sweep reached the handler: it did not stop at the gateway for every case. A route
      // with a query, body or path schema refuses some input with 400; one without any has
      // nothing to refuse and answers. A careers page answers its refusals with the not-found page.
      if (r.html)
        expect(results.filter(([, res]) => res.status === 404 && res.text.startsWith('<!doctype html>')).length).toBeGreaterThan(0);
      else if (r.query || r.body || r.params) expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
      else expect(results.filter(([, res]) => res.status === r.status).length).toBeGreaterThan(0);
    });
  }

  it('the shared session survived the sweep: not logged out, its account not locked', async () => {
    const res = await stack.call('GET', '/api/session', { headers: { Cookie: cookie } });
    expect([res.status, res.body?.data?.user?.email]).toEqual([200, sessionUser.email]);
    const again = await stack.call('POST', '/api/session', { body: { email: sessionUser.email, password: PASSWORD } });
    expect(again.status).toBe(200);
  });

  it('Object.prototype is not polluted by any of it', () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore);
    const probe = {} as Record<string, unknown>;
    expect(probe.x).toBeUndefined();
    expect(probe.polluted).toBeUndefined();
  });
});

describe('query parameters named like Object.prototype members', () => {
  const NAMES = ['constructor', 'toString', '__proto__'];

  // Regression: dev/events.ts proxyEvent once did `(multiQuery[k] ??= []).push(v)` on a
  // plain object, which finds Object.prototype.constructor / .toString (and Object.prototype
  // itself for __proto__), so `.push` was not a function and the request was never answered.
  // Every route gets the credentials it needs, so the request reaches its handler.
  it('the local gateway answers ?constructor=x, ?toString=x, ?__proto__=x on every route, below 500', async () => {
    const attempt = async (r: Route, name: string) => {
      const what = `${label(r)}?${name}=x`;
      const body = r.method === 'GET' ? undefined : JSON.stringify(validBody(r));
      const limitMs = 5_000;
      try {
        const res = await fetch(`${stack.url}${r.path.replace(/\{[^}]+\}/g, randomUUID())}?${name}=x`, {
          method: r.method,
          headers: { ...(await credentialsFor(r)), ...(body && { 'Content-Type': 'application/json' }) },
          body,
          signal: AbortSignal.timeout(limitMs),
        });
        const text = await res.text();
        if (res.status >= 500) return `${what}: ${res.status} ${text}`;
        // A careers page answers a page, its 404 included.
        if (r.html)
          return res.headers.get('content-type')?.startsWith('text/html') ? undefined : `${what}: ${res.status} not a page: ${text}`;
        if (res.status >= 300 && !isErrorBody(JSON.parse(text))) return `${what}: ${res.status} body ${text}`;
        // Credentials were right: nothing may stop at the authorizer.
        if (res.status === 401 || res.status === 403) return `${what}: ${res.status} ${text}`;
        return undefined;
      } catch (err) {
        return `${what}: no answer within ${limitMs / 1000} s (${(err as Error).name})`;
      }
    };
    const all = ROUTES.flatMap((r) => NAMES.map((name) => [r, name] as const));
    const problems: (string | undefined)[] = [];
    for (let i = 0; i < all.length; i += 8) problems.push(...(await Promise.all(all.slice(i, i + 8).map(([r, name]) => attempt(r, name)))));
    expect(problems.filter(Boolean)).toEqual([]);
    // 8 at a time: a handler left hanging costs 5 s a round, more than the default 30 s in all.
  }, 120_000);

  it('the handlers (as deployed behind API Gateway) refuse them on GET routes with a query schema with 400 unknown query field, and the others ignore them', async () => {
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
        handler: (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string; headers?: Record<string, string> }>;
      };
      const pathParameters = Object.fromEntries([...r.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, randomUUID()]));
      const path = r.path.replace(/\{(\w+)\}/g, (_, name: string) => pathParameters[name]!);
      for (const name of NAMES) {
        const event = proxyEvent({
          method: r.method,
          path,
          resource: r.path,
          pathParameters,
          headers: {},
          search: new URLSearchParams(),
          body: null,
          sourceIp: '127.0.0.1',
          authorizer: contextFor(r),
        });
        // What the Lambda runtime hands over: the event is parsed JSON, so these are own keys.
        const parsed = JSON.parse(
          JSON.stringify(event)
            .replace('"queryStringParameters":null', `"queryStringParameters":{"${name}":"x"}`)
            .replace('"multiValueQueryStringParameters":null', `"multiValueQueryStringParameters":{"${name}":["x"]}`),
        );
        expect(Object.keys(parsed.queryStringParameters)).toEqual([name]);
        const res = await handler(parsed, lambdaContext(r.handler));
        if (r.html) {
          // A public page ignores what it does not read (a link's tracking parameters): the random
          // slug is not found, and the answer is the not-found page.
          expect([res.statusCode, res.headers?.['Content-Type'], res.body.startsWith('<!doctype html>')], `${label(r)}?${name}=x`).toEqual([
            404,
            'text/html; charset=utf-8',
            true,
          ]);
        } else if (r.query) {
          expect([res.statusCode, JSON.parse(res.body)], `${label(r)}?${name}=x`).toEqual([
            400,
            { error: `unknown query field "${name}"`, code: 'invalid_field', field: name },
          ]);
        } else if (r.params) {
          // No query schema: the query string is not read at all; the random id is not found.
          expect([res.statusCode, JSON.parse(res.body).error], `${label(r)}?${name}=x: ${res.body}`).toEqual([
            404,
            expect.stringMatching(/not found$/),
          ]);
        } else {
          // No query schema: the query string is not read at all.
          expect(res.statusCode, `${label(r)}?${name}=x: ${res.body}`).toBe(r.status);
          expect(Object.keys(JSON.parse(res.body)), `${label(r)}?${name}=x`).not.toContain('error');
        }
      }
    }
  });
});
