/**
 * Hostile input (test/integration/malformed/fixture.ts): the sweeps over every route of the table
 * (lib/routes.ts). They are layered so that each guarantee is proven once, at the cheapest level
 * that proves it, on one stack:
 *
 * 1. The whole generic matrix (cases.ts casesFor: query strings, headers, cookies, bodies, content
 *    types, path values) through the local gateway, its authorizers and the handlers on DynamoDB
 *    Local, for a few REPRESENTATIVE routes. That part of the way (the HTTP server, the gateway's
 *    parsing and route matching, the token and session authorizers, the body parser, the error
 *    boundary of lib/http.ts) is the same code for every route: one route of each kind proves it.
 * 2. Every route through the gateway: its baseline (a plain valid request reaches its handler)
 *    and a small sample of each kind of case its request has (cases.ts gatewaySampleFor), which
 *    shows that it sits behind that same gateway, authorizer and boundary.
 * 3. Every route's OWN schemas and handler (cases.ts ownCasesFor: the query, body, content-type
 *    and path matrix), in-process: each case becomes the event the gateway would hand over
 *    (dev/gateway.ts parseTarget and matchPath, dev/events.ts proxyEvent, the authorizer's
 *    context) and the handler runs as deployed, through the common boundary. What differs per
 *    route is its line's schemas and that apiHandler builds its handler, and sending thousands of
 *    requests (many of 100 KB) over HTTP and an authorizer proved the shared code once per route
 *    over. A case the schemas refuse costs no table read; a case the handler accepts still
 *    reaches DynamoDB Local and does its real work.
 *
 * Whatever the input, the answer is never a 5xx, and every non-2xx body is exactly
 * `{ error: string, code, field? }`; without a query schema the query string is ignored. Last,
 * query parameters named like Object.prototype members (constructor, toString, __proto__):
 * through the gateway on the representative routes, into every route in-process (layer 3), and
 * into the GET handlers as deployed, with the parameters as own keys of a parsed event. The
 * gateway requests go 8 at a time, each given 5 s: the bug they guard against left a request
 * unanswered, and a hanging request must cost a round, not the file.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { lambdaContext, proxyEvent } from '../../../dev/events';
import { parseTarget } from '../../../dev/gateway';
import { GATEWAY_ERRORS } from '../../../lib/gateway-responses';
import { matchPath, type Route } from '../../../lib/routes';
import { PASSWORD } from '../../helpers/stack';
import { casesFor, gatewaySampleFor, ownCasesFor, type Case } from './cases';
import {
  type Answer,
  cheapUser,
  cookie,
  credentialsFor,
  freshCookie,
  inPool,
  isErrorBody,
  label,
  logsOut,
  reachedHandler,
  requestOf,
  ROUTES,
  send,
  sessionUser,
  stack,
  sweepFailures,
  tenant,
  validBody,
  useMalformedFixture,
} from './fixture';

useMalformedFixture();

/**
 * The routes that get the whole matrix through the gateway, one per kind of request the gateway
 * and the boundary treat differently.
 */
const REPRESENTATIVE: Record<string, string> = {
  // Token authorizer; a query schema; no body, no path parameter.
  'GET /api/v1/candidates': 'token, query',
  // Token authorizer; a body and a path parameter; an update that reads before it writes.
  'PATCH /api/v1/candidates/{id}': 'token, body, path',
  // Session authorizer and the console's CSRF check; a console twin of a token line, with a body.
  'POST /api/candidates': 'session twin, body, CSRF',
  // Session authorizer; a query schema and a path parameter.
  'GET /api/webhooks/{id}/deliveries': 'session, query, path',
  // Session authorizer; nothing to validate: every query case must answer as the baseline does.
  'GET /api/session': 'session, no schema',
  // Public; login: its own hostile bodies, the lockout counting every attempt.
  'POST /api/session': 'public, body, login',
  // The careers site: HTML answers, its refusals the not-found page; a query and a slug.
  'GET /careers/{slug}': 'html page, query, slug',
  // The careers site's form post: HTML, a body and two path parameters.
  'POST /careers/{slug}/jobs/{id}/apply': 'html form, body, path',
};

type Handler = (event: unknown, context: unknown) => Promise<APIGatewayProxyResult>;

/** One account per route for the body cases of the two password routes (see principalFor). */
const bodyCaseAccounts = new Map<string, Promise<{ id: string; email: string }>>();

/**
 * The credentials the gateway would have checked, as headers (a handler may read the cookie:
 * signing out ends the session it names) and as the authorizer's context
 * (lib/auth/authorizer.ts, lib/auth/session-authorizer.ts). A password change and turning
 * two-factor off check a password and count the attempt, so they never run as the shared
 * session's account: a request with the valid body gets an account of its own, as in fixture.ts
 * credentialsFor; a hostile body shares one account per route, since its schema refuses it
 * before any password is checked (and were one to reach the check, only that account would lock).
 */
async function principalFor(r: Route, c: Case): Promise<{ headers: Record<string, string>; authorizer?: Record<string, unknown> }> {
  if (r.auth === 'none') return { headers: {} };
  const base = { tenantId: tenant.id, tenantSlug: tenant.slug };
  if (r.auth === 'token') return { headers: {}, authorizer: { ...base, scopes: '*', principalId: 'sweep' } };
  const own = r.path === '/api/session/password' || r.path === '/api/account/two-factor/disable';
  const account = () => cheapUser(tenant, `password-${randomUUID().slice(0, 8)}@${tenant.slug}.example.com`);
  let user: { id: string; email: string } = sessionUser;
  if (own && c.rawBody === undefined) user = await account();
  else if (own) {
    if (!bodyCaseAccounts.has(label(r))) bodyCaseAccounts.set(label(r), account());
    user = await bodyCaseAccounts.get(label(r))!;
  }
  const sessionCookie = own || logsOut(r) ? await freshCookie(user) : cookie;
  return {
    headers: { Cookie: sessionCookie },
    authorizer: { ...base, userId: user.id, email: user.email, role: 'admin', principalId: user.id },
  };
}

/** The handler's answer to a case, or undefined where the gateway answers before any handler runs. */
async function invoke(r: Route, c: Case): Promise<Answer | undefined> {
  const { handler } = (await import(`../../../functions/${r.handler}.ts`)) as { handler: Handler };
  const who = await principalFor(r, c);
  const req = requestOf(r, c, who.headers);
  const target = parseTarget(req.path);
  const matched = target && ROUTES.find((x) => x.method === r.method && matchPath(x.path, target.path));
  if (!target || matched !== r) return undefined;
  // Node hands the gateway lower-case header names, and the body as UTF-8 text.
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const event = proxyEvent({
    method: r.method,
    path: target.path,
    resource: r.path,
    pathParameters: matchPath(r.path, target.path)!,
    headers,
    search: target.search,
    body: req.rawBody === undefined || req.rawBody === '' ? null : Buffer.from(req.rawBody, 'utf8').toString('utf8'),
    sourceIp: '127.0.0.1',
    authorizer: who.authorizer,
  });
  const res = await handler(event, lambdaContext(r.handler, (r.timeoutSeconds ?? 10) * 1000));
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  // The same contract check as every request through the gateway (test/helpers/stack.ts).
  stack.check(r.method, req.path, res.statusCode, body);
  return { status: res.statusCode, text: res.body, body };
}

describe("layer 3: every route's own schemas and handler, in-process", () => {
  for (const r of ROUTES) {
    it(`${label(r)}: never 5xx, every refusal is exactly { error, code, field? }`, async () => {
      const cases = ownCasesFor(r);
      const baseline = (await invoke(r, { name: 'baseline' }))!;
      expect(baseline.status, baseline.text.slice(0, 200)).toBeLessThan(500);
      const answered: (readonly [Case, Answer | undefined])[] = [];
      // Login counts every attempt in flight towards the lockout; creating webhooks meets the cap
      // of 20 active endpoints unless each one made is deleted again: those go one at a time.
      if (r.path === '/api/session' || label(r) === 'POST /api/webhooks') {
        for (const c of cases) {
          const res = await invoke(r, c);
          answered.push([c, res] as const);
          if (label(r) === 'POST /api/webhooks' && res?.status === 201) {
            const del = await stack.call('DELETE', `/api/webhooks/${res.body.webhook.id}`, { headers: { Cookie: cookie } });
            expect(del.status, del.text).toBe(200);
          }
        }
      } else answered.push(...(await inPool(cases, async (c) => [c, await invoke(r, c)] as const, 4)));
      const results = answered.filter((x): x is readonly [Case, Answer] => x[1] !== undefined);
      // Only path cases may be left to the gateway.
      expect(answered.filter(([c, res]) => res === undefined && c.pathId === undefined).map(([c]) => c.name)).toEqual([]);
      expect(sweepFailures(r, baseline, results)).toEqual([]);
      expect(reachedHandler(r, results), `${label(r)}: no case reached the handler's own checks`).toBe(true);
    });
  }
});

describe('layers 1 and 2: the hostile input sweep through the gateway', () => {
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();

  it('the representative routes are in the table', () => {
    expect(Object.keys(REPRESENTATIVE).filter((name) => !ROUTES.some((r) => label(r) === name))).toEqual([]);
  });

  for (const r of ROUTES) {
    const full = label(r) in REPRESENTATIVE;
    it(`${label(r)}${full ? ' (whole matrix)' : ''}: never 5xx, every refusal is exactly { error, code, field? }`, async () => {
      const cases = full ? casesFor(r) : gatewaySampleFor(r);
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
      const results: (readonly [Case, Answer])[] = [];
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
      expect(sweepFailures(r, baseline, results)).toEqual([]);
      if (full) expect(reachedHandler(r, results), `${label(r)}: the sweep stopped before the handler`).toBe(true);
      // A hostile body reached the route's body parser, behind the common error boundary.
      const truncated = results.find(([c]) => c.name === 'body truncated JSON')?.[1];
      if (truncated && !r.html)
        expect([truncated.status, truncated.body], label(r)).toEqual([
          400,
          { error: 'request body is not valid JSON', code: 'invalid_request' },
        ]);
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
  // That event building is the gateway's, the same for every route: the representative routes
  // prove it over HTTP, and every-route-schemas.test.ts sends these parameters to every route
  // through the same proxyEvent. Each route gets the credentials it needs, so the request
  // reaches its handler.
  it('the local gateway answers ?constructor=x, ?toString=x, ?__proto__=x on the representative routes, below 500', async () => {
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
    const all = ROUTES.filter((r) => label(r) in REPRESENTATIVE).flatMap((r) => NAMES.map((name) => [r, name] as const));
    const problems: (string | undefined)[] = [];
    for (let i = 0; i < all.length; i += 8) problems.push(...(await Promise.all(all.slice(i, i + 8).map(([r, name]) => attempt(r, name)))));
    expect(problems.filter(Boolean)).toEqual([]);
    // 8 at a time: a handler left hanging costs 5 s a round.
  }, 60_000);

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
