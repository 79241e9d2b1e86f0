/**
 * Authentication and authorization through the local gateway, which runs the real TOKEN
 * authorizer (policy cached per Authorization header like API Gateway) and the real session
 * REQUEST authorizer (never cached). Expectations are derived from the route table, so a new
 * route is covered automatically (add a sample request for it below, the checks fail until
 * you do): token routes need a Bearer token with the route's scope, session routes the session
 * cookie, public routes (auth 'none') nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionDigest } from '../../lib/auth/session';
import { generateToken, tokenDigest } from '../../lib/auth/token';
import { GATEWAY_ERRORS } from '../../lib/gateway-responses';
import { SCOPES, type Scope } from '../../lib/model';
import { matchPath, routes, type Route } from '../../lib/routes';
import { PASSWORD, startStack, type Stack } from '../helpers/stack';

type Tenant = Awaited<ReturnType<Stack['tenant']>>;
type Response = Awaited<ReturnType<Stack['call']>>;

const ROUTES: readonly Route[] = routes;
const TOKEN_ROUTES = ROUTES.filter((r) => r.auth === 'token');
const SESSION_ROUTES = ROUTES.filter((r) => r.auth === 'session');
const PUBLIC_ROUTES = ROUTES.filter((r) => r.auth === 'none');
/** DELETE /api/session ends the session it is called with. */
const logsOut = (r: Pick<Route, 'method' | 'path'>) => r.method === 'DELETE' && r.path === '/api/session';
const NAMED_SCOPES = SCOPES.filter((s): s is Exclude<Scope, '*'> => s !== '*');
const label = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;

const UNAUTHORIZED = { error: GATEWAY_ERRORS.unauthorized.error, code: GATEWAY_ERRORS.unauthorized.code };
const FORBIDDEN = { error: GATEWAY_ERRORS.accessDenied.error, code: GATEWAY_ERRORS.accessDenied.code };
const NOT_FOUND = { error: GATEWAY_ERRORS.notFound.error, code: GATEWAY_ERRORS.notFound.code };

/**
 * A request per route that a caller with the right credentials (the route's scope, a session,
 * nothing for public routes) may make, and the status it gets. POST /pipeline names a candidate,
 * and the {id} routes a token or webhook, that does not exist: 404 comes from the handler (not
 * the gateway's "Not found"), so the request got past the authorizer and the policy.
 */
const SAMPLES: Record<string, () => { body?: unknown; status: number }> = {
  'GET /api/v1/candidates': () => ({ status: 200 }),
  'POST /api/v1/candidates': () => ({ body: { name: 'Scope Check' }, status: 201 }),
  'GET /api/v1/candidates/{id}': () => ({ status: 404 }),
  'PATCH /api/v1/candidates/{id}': () => ({ body: { name: 'Scope Check' }, status: 404 }),
  'GET /api/v1/requisitions': () => ({ status: 200 }),
  'GET /api/v1/pipeline': () => ({ status: 200 }),
  'POST /api/v1/pipeline': () => ({ body: { candidate_id: randomUUID(), stage: 'interviewed' }, status: 404 }),
  'GET /api/v1/openapi.json': () => ({ status: 200 }),
  'POST /api/session': () => ({ body: { email: user.email, password: PASSWORD }, status: 200 }),
  'GET /api/session': () => ({ status: 200 }),
  'DELETE /api/session': () => ({ status: 200 }),
  'POST /api/tokens': () => ({ body: { name: 'Auth Check', scopes: ['pipeline:read'] }, status: 201 }),
  'GET /api/tokens': () => ({ status: 200 }),
  'DELETE /api/tokens/{id}': () => ({ status: 404 }),
  'GET /api/webhooks': () => ({ status: 200 }),
  'POST /api/webhooks': () => ({ body: { url: 'https://hooks.example.com/auth-check' }, status: 201 }),
  'GET /api/webhooks/{id}': () => ({ status: 404 }),
  'PATCH /api/webhooks/{id}': () => ({ body: { active: false }, status: 404 }),
  'DELETE /api/webhooks/{id}': () => ({ status: 404 }),
  'POST /api/webhooks/{id}/test': () => ({ status: 404 }),
  // Refused by its schema (too short) after the authorizer: no attempt is counted, nothing changes.
  'PUT /api/session/password': () => ({ body: { current_password: PASSWORD, new_password: 'short' }, status: 400 }),
  'GET /api/overview': () => ({ status: 200 }),
  'GET /api/settings/pipeline': () => ({ status: 200 }),
  'PUT /api/settings/pipeline': () => ({ body: { stuck_days: { applied: 3 } }, status: 200 }),
  'GET /api/members': () => ({ status: 200 }),
  'POST /api/members': () => ({ body: { email: `auth-${randomUUID()}@example.com`, role: 'member' }, status: 201 }),
  'PATCH /api/members/{id}': () => ({ body: { role: 'member' }, status: 404 }),
  'DELETE /api/members/{id}': () => ({ status: 404 }),
  'POST /api/members/{id}/reset-password': () => ({ status: 404 }),
  'DELETE /api/members/{id}/lockout': () => ({ status: 404 }),
  'GET /api/webhooks/{id}/deliveries': () => ({ status: 404 }),
  'POST /api/webhooks/{id}/resend': () => ({ body: { event_id: `evt_${'0'.repeat(32)}` }, status: 404 }),
  'POST /api/webhooks/{id}/replay': () => ({ body: { since: new Date(Date.now() - 3_600_000).toISOString() }, status: 404 }),
  'GET /api/webhooks/{id}/replay': () => ({ status: 404 }),
  'POST /api/webhooks/{id}/rotate-secret': () => ({ body: {}, status: 404 }),
};
const sampleFor = (r: Route) => {
  const make = SAMPLES[label(r)];
  expect(make, `add a sample request for ${label(r)} to SAMPLES`).toBeDefined();
  return make!();
};
/** The route answered what its sample request gets; a 404 must be the handler's, not the gateway's. */
const expectSample = (r: Route, res: Response, what = label(r)) => {
  expect(res.status, `${what}: ${res.text}`).toBe(sampleFor(r).status);
  if (res.status === 404) expect(res.body, `${what}: the gateway's 404, not the handler's`).not.toEqual(NOT_FOUND);
};
/** Path of a route with its parameters filled in. */
const pathOf = (r: Route, id: string = randomUUID()) => r.path.replace(/\{[^}]+\}/g, id);
const callRoute = (
  r: Route,
  opts: { token?: string; cookie?: string; headers?: Record<string, string>; id?: string } = {},
) => {
  const { body } = sampleFor(r);
  const { cookie, id, headers, ...rest } = opts;
  return stack.call(r.method, pathOf(r, id), { ...rest, body, headers: { ...(cookie !== undefined && { Cookie: cookie }), ...headers } });
};

let stack: Stack;
let tenant: Tenant;
let adminToken: string;
/** An admin user of `tenant` (password PASSWORD) and a session cookie of theirs. */
let user: { id: string; email: string };
let cookie: string;
/** A real token and a real webhook of `tenant`: refused {id} requests aim at them. */
let probeTokenId: string;
let probeWebhookId: string;
let probeMemberId: string;
const probeIdFor = (r: Route) =>
  r.path.startsWith('/api/webhooks/') ? probeWebhookId : r.path.startsWith('/api/members/') ? probeMemberId : probeTokenId;
/** Per route: a token with every scope but the route's, and one with only the route's. */
const matrix = new Map<Route, { without: string; only: string }>();

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  adminToken = await tenant.token(['*']);
  user = await tenant.user('admin');
  cookie = await stack.login(user.email, PASSWORD);
  const probe = await stack.call('POST', '/api/tokens', { body: { name: 'probe', scopes: ['pipeline:read'] }, headers: { Cookie: cookie } });
  expect(probe.status).toBe(201);
  probeTokenId = probe.body.data.id;
  const hook = await stack.call('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/probe' }, headers: { Cookie: cookie } });
  expect(hook.status, hook.text).toBe(201);
  probeWebhookId = hook.body.webhook.id;
  probeMemberId = (await tenant.user('member')).id;
  for (const r of TOKEN_ROUTES) {
    matrix.set(r, {
      without: await tenant.token(NAMED_SCOPES.filter((s) => s !== r.scope)),
      only: await tenant.token([r.scope!]),
    });
  }
});
afterAll(() => stack.close());

const candidateCount = async () => {
  const res = await stack.call('GET', '/api/v1/candidates', { token: adminToken });
  expect(res.status).toBe(200);
  return res.body.count as number;
};

describe('scope matrix', () => {
  it('covers every token route', () => {
    expect(TOKEN_ROUTES.length).toBeGreaterThan(0);
    expect(matrix.size).toBe(TOKEN_ROUTES.length);
  });

  for (const r of TOKEN_ROUTES) {
    it(`${label(r)}: every scope except ${r.scope} -> 403 { error }, and nothing happens`, async () => {
      const before = await candidateCount();
      const res = await callRoute(r, { token: matrix.get(r)!.without });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
      expect(await candidateCount()).toBe(before);
    });

    it(`${label(r)}: only ${r.scope} -> passes the authorizer`, async () => {
      const { status } = sampleFor(r);
      const res = await callRoute(r, { token: matrix.get(r)!.only });
      expect(res.status).not.toBe(401);
      expect(res.status).not.toBe(403);
      expect(res.status).toBe(status);
    });

    it(`${label(r)}: * -> passes the authorizer`, async () => {
      const res = await callRoute(r, { token: adminToken });
      expect(res.status).toBe(sampleFor(r).status);
    });
  }

  it('a single-scope token keeps being refused on the other routes once its policy is cached', async () => {
    // API Gateway caches ONE policy per token and reuses it on every route: the policy must
    // cover the whole API, not only the route that happened to be called first.
    for (const scope of NAMED_SCOPES) {
      const token = await tenant.token([scope]);
      const own = TOKEN_ROUTES.find((r) => r.scope === scope)!;
      expect((await callRoute(own, { token })).status, `${scope} on ${label(own)}`).toBe(sampleFor(own).status);
      for (const r of TOKEN_ROUTES) {
        const res = await callRoute(r, { token });
        if (r.scope === scope) expect(res.status, `${scope} on ${label(r)}`).toBe(sampleFor(r).status);
        else expect([res.status, res.body], `${scope} on ${label(r)}`).toEqual([403, FORBIDDEN]);
      }
    }
  });
});

describe('401 for a missing or invalid token', () => {
  const cases: Array<[string, () => Record<string, string>]> = [
    ['no Authorization header', () => ({})],
    ['an empty Authorization header', () => ({ Authorization: '' })],
    ['Basic credentials', () => ({ Authorization: 'Basic dXNlcjpwYXNzd29yZA==' })],
    ['Bearer with no token', () => ({ Authorization: 'Bearer' })],
    ['Bearer and a space', () => ({ Authorization: 'Bearer ' })],
    ['Bearer and two spaces', () => ({ Authorization: 'Bearer  ' })],
    ['an unknown, well-formed token', () => ({ Authorization: `Bearer ${generateToken()}` })],
    ['a token with a broken checksum', () => ({ Authorization: `Bearer ${brokenChecksum(adminToken)}` })],
    ['a truncated token', () => ({ Authorization: `Bearer ${adminToken.slice(0, -1)}` })],
    ['the token digest instead of the token', () => ({ Authorization: `Bearer ${tokenDigest(adminToken)}` })],
    // RFC 7235 separates scheme and credentials with 1*SP: any case and several spaces are
    // accepted (next describe), a tab or no separator at all is not.
    ['a tab after Bearer', () => ({ Authorization: `Bearer\t${adminToken}` })],
    ['no space after Bearer', () => ({ Authorization: `Bearer${adminToken}` })],
    ['a misspelt scheme', () => ({ Authorization: `Bearr ${adminToken}` })],
    ['the token without a scheme', () => ({ Authorization: adminToken })],
    ['the token followed by more text', () => ({ Authorization: `Bearer ${adminToken} extra` })],
    ['the token followed by a space and more text', () => ({ Authorization: `bearer  ${adminToken} extra` })],
    ['two tokens', () => ({ Authorization: `Bearer ${adminToken}, Bearer ${adminToken}` })],
    ['Token scheme', () => ({ Authorization: `Token ${adminToken}` })],
    ['a session cookie instead of a token', () => ({ Cookie: cookie })],
    ['the session id as a Bearer token', () => ({ Authorization: `Bearer ${cookie.split('=')[1]}` })],
  ];

  for (const [name, headers] of cases) {
    it(`${name} -> 401 { error } on every token route`, async () => {
      for (const r of TOKEN_ROUTES) {
        const res = await callRoute(r, { headers: headers() });
        expect([res.status, res.body], label(r)).toEqual([401, UNAUTHORIZED]);
      }
    });
  }

  it('refusals are not cached against the valid token: it still works afterwards', async () => {
    for (const authorization of [`Token ${adminToken}`, `Bearer ${adminToken} extra`, `Bearer\t${adminToken}`]) {
      const refused = await stack.call('GET', '/api/v1/pipeline', { headers: { Authorization: authorization } });
      expect([refused.status, refused.body], authorization).toEqual([401, UNAUTHORIZED]);
      const res = await stack.call('GET', '/api/v1/pipeline', { token: adminToken });
      expect(res.status).toBe(200);
    }
  });

  it('a token of another tenant still authenticates (tenancy comes from the token, checked in isolation.test.ts)', async () => {
    const other = await stack.tenant();
    const res = await stack.call('GET', '/api/v1/pipeline', { token: await other.token(['pipeline:read']) });
    expect(res.status).toBe(200);
  });
});

describe('the Bearer scheme is case-insensitive and may be followed by several spaces (RFC 7235)', () => {
  const spellings: Array<[string, (token: string) => string]> = [
    ['lower-case "bearer"', (t) => `bearer ${t}`],
    ['upper-case "BEARER"', (t) => `BEARER ${t}`],
    ['mixed-case "bEaReR"', (t) => `bEaReR ${t}`],
    ['two spaces after Bearer', (t) => `Bearer  ${t}`],
    ['three spaces after lower-case bearer', (t) => `bearer   ${t}`],
  ];

  for (const [name, spell] of spellings) {
    it(`${name}: every token route answers its normal status, not 401`, async () => {
      for (const r of TOKEN_ROUTES) {
        const res = await callRoute(r, { headers: { Authorization: spell(adminToken) } });
        expect(res.status, `${label(r)}: ${res.text}`).not.toBe(401);
        expectSample(r, res);
      }
    });

    it(`${name}: a single-scope token still gets 403 on the other routes`, async () => {
      const token = await tenant.token(['pipeline:read']);
      for (const r of TOKEN_ROUTES) {
        const res = await callRoute(r, { headers: { Authorization: spell(token) } });
        if (r.scope === 'pipeline:read') expectSample(r, res);
        else expect([res.status, res.body], label(r)).toEqual([403, FORBIDDEN]);
      }
    });
  }

  it('an unknown token is refused whatever the spelling of the scheme', async () => {
    const unknown = generateToken();
    for (const [name, spell] of spellings) {
      const res = await stack.call('GET', '/api/v1/pipeline', { headers: { Authorization: spell(unknown) } });
      expect([res.status, res.body], name).toEqual([401, UNAUTHORIZED]);
    }
  });
});

describe('session routes: the session cookie, checked on every request', () => {
  /** The tenant's token ids, through the API: a refused request must not change them. */
  const tokenIds = async () => {
    const res = await stack.call('GET', '/api/tokens', { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    return (res.body.data as Array<{ id: string }>).map((t) => t.id).sort();
  };
  /** The tenant's webhooks (ids, urls, active flags ...): a refused request must not change them. */
  const webhooks = async () => {
    const res = await stack.call('GET', '/api/webhooks', { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    return (res.body.data as Array<{ id: string }>).sort((a, b) => a.id.localeCompare(b.id));
  };
  /** A cookie to make a request that succeeds with: a fresh one where the request logs out. */
  const cookieFor = async (r: Route) => (logsOut(r) ? stack.login(user.email, PASSWORD) : cookie);
  const sessionId = () => cookie.split('=')[1]!;

  it('covers every session route', () => {
    expect(SESSION_ROUTES.length).toBeGreaterThan(0);
    expect(SESSION_ROUTES.every((r) => r.scope === undefined)).toBe(true);
  });

  const refusals: Array<[string, () => { token?: string; headers?: Record<string, string> }]> = [
    ['no cookie', () => ({})],
    ['an empty Cookie header', () => ({ headers: { Cookie: '' } })],
    ['a valid * API token instead of a cookie (a token is not a session)', () => ({ token: adminToken })],
    ['a valid * API token as the session cookie', () => ({ headers: { Cookie: `__Host-tp_session=${adminToken}` } })],
    ['only other cookies', () => ({ headers: { Cookie: 'theme=dark; lang=en' } })],
    ['the session id under a name without the __Host- prefix', () => ({ headers: { Cookie: `tp_session=${sessionId()}` } })],
    ['the session id under a differently cased name', () => ({ headers: { Cookie: `__host-tp_session=${sessionId()}` } })],
    ['the session cookie with an empty value', () => ({ headers: { Cookie: '__Host-tp_session=' } })],
    ['an unknown, well-formed session id', () => ({ headers: { Cookie: `__Host-tp_session=${randomBytes(32).toString('base64url')}` } })],
    ['a truncated session id', () => ({ headers: { Cookie: cookie.slice(0, -1) } })],
    ['the session id with an extra character', () => ({ headers: { Cookie: `${cookie}A` } })],
    ['the session id in quotes', () => ({ headers: { Cookie: `__Host-tp_session="${sessionId()}"` } })],
    ['the digest of the session id instead of the id', () => ({ headers: { Cookie: `__Host-tp_session=${sessionDigest(sessionId())}` } })],
    ['the session id as a Bearer token', () => ({ headers: { Authorization: `Bearer ${sessionId()}` } })],
  ];

  for (const [name, opts] of refusals) {
    it(`${name} -> 401 { error } on every session route, and nothing happens`, async () => {
      const before = await tokenIds();
      const hooksBefore = await webhooks();
      for (const r of SESSION_ROUTES) {
        const res = await callRoute(r, { ...opts(), id: probeIdFor(r) });
        expect([res.status, res.body], label(r)).toEqual([401, UNAUTHORIZED]);
      }
      expect(await tokenIds()).toEqual(before);
      expect(before).toContain(probeTokenId);
      expect(await webhooks()).toEqual(hooksBefore);
      expect(hooksBefore.find((h) => h.id === probeWebhookId)).toMatchObject({ active: true });
      // The shared session was not logged out by any of it.
      expect((await stack.call('GET', '/api/session', { headers: { Cookie: cookie } })).status).toBe(200);
    });
  }

  for (const r of SESSION_ROUTES) {
    it(`${label(r)}: a valid session cookie passes the authorizer`, async () => {
      const res = await callRoute(r, { cookie: await cookieFor(r) });
      expect(res.status, res.text).not.toBe(401);
      expect(res.status, res.text).not.toBe(403);
      expectSample(r, res);
    });

    it(`${label(r)}: the session cookie among other cookies passes, an API token next to it changes nothing`, async () => {
      const c = await cookieFor(r);
      const res = await callRoute(r, { cookie: `theme=dark; ${c}; lang=en`, token: adminToken });
      expectSample(r, res);
    });
  }

  it('a logged-out session is refused at once on every session route', async () => {
    const c = await stack.login(user.email, PASSWORD);
    expect((await stack.call('GET', '/api/session', { headers: { Cookie: c } })).status).toBe(200);
    const out = await stack.call('DELETE', '/api/session', { headers: { Cookie: c } });
    expect(out.status).toBe(200);
    for (const r of SESSION_ROUTES) {
      const res = await callRoute(r, { cookie: c, id: probeIdFor(r) });
      expect([res.status, res.body], label(r)).toEqual([401, UNAUTHORIZED]);
    }
    expect(await tokenIds()).toContain(probeTokenId);
    expect((await webhooks()).find((h) => h.id === probeWebhookId)).toMatchObject({ active: true });
  });

  it('session results are not cached: a session deleted from the table is refused on the next request', async () => {
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    const { ddb } = await import('../../lib/store/client');
    const { keys } = await import('../../lib/store/table');
    const c = await stack.login(user.email, PASSWORD);
    for (const r of SESSION_ROUTES.filter((x) => x.method === 'GET')) {
      expectSample(r, await callRoute(r, { cookie: c }));
    }
    await ddb.send(new DeleteCommand({ TableName: stack.tableName, Key: keys.session(sessionDigest(c.split('=')[1]!)) }));
    for (const r of SESSION_ROUTES) {
      const res = await callRoute(r, { cookie: c, id: probeIdFor(r) });
      expect([res.status, res.body], label(r)).toEqual([401, UNAUTHORIZED]);
    }
  });
});

describe('public routes (auth none) need no credentials', () => {
  it('are exactly the OpenAPI document and the login', () => {
    expect(PUBLIC_ROUTES.map(label).sort()).toEqual(['GET /api/v1/openapi.json', 'POST /api/session']);
  });

  for (const r of PUBLIC_ROUTES) {
    it(`${label(r)}: answers without credentials, and invalid credentials do not get it refused`, async () => {
      const variants: Array<[string, { token?: string; headers?: Record<string, string> }]> = [
        ['no credentials', {}],
        ['a valid token', { token: adminToken }],
        ['an unknown token', { token: generateToken() }],
        ['a garbage Authorization header', { headers: { Authorization: 'Basic nope' } }],
        ['a valid session cookie', { headers: { Cookie: cookie } }],
        ['an unknown session cookie', { headers: { Cookie: `__Host-tp_session=${randomBytes(32).toString('base64url')}` } }],
      ];
      for (const [name, opts] of variants) {
        const res = await callRoute(r, opts);
        expect(res.status, `${name}: ${res.text}`).not.toBe(401);
        expectSample(r, res, `${label(r)} with ${name}`);
      }
    });
  }
});

describe('login lockout (POST /api/session)', () => {
  // BUG (lib/domain/identity.ts login + lib/store/login-failures.ts recordFailure): login reads
  // the failure count, spends ~0.3 s verifying the password, then records the failure with
  // `SET failures = :one` whenever the count it read was 0. Concurrent wrong guesses all read
  // 0, all get their password checked, and all reset the counter to 1: a burst of any size
  // counts as ONE failure, so the 5-failure lockout does not limit guessing (repro: 8 parallel
  // wrong passwords, then the right one -> 200 instead of 429; failures item = 1).
  it('a burst of concurrent wrong passwords counts every failure: the account is locked afterwards', async () => {
    const victim = await tenant.user('member');
    const guesses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => stack.call('POST', '/api/session', { body: { email: victim.email, password: `wrong guess ${i}` } })),
    );
    // Each refused, as a wrong password (401) or already locked (429); none let in.
    for (const res of guesses) expect([401, 429], res.text).toContain(res.status);
    const after = await stack.call('POST', '/api/session', { body: { email: victim.email, password: PASSWORD } });
    expect([after.status, after.body], '8 failed logins, then the right password').toEqual([429, { error: expect.stringMatching(/too many failed sign-ins/), code: 'rate_limited' }]);
  });

  it('five sequential wrong passwords lock the account, even for the right password (control)', async () => {
    const victim = await tenant.user('member');
    for (let i = 0; i < 5; i++) {
      const res = await stack.call('POST', '/api/session', { body: { email: victim.email, password: `wrong ${i}` } });
      expect(res.status, `guess ${i}`).toBe(401);
    }
    const after = await stack.call('POST', '/api/session', { body: { email: victim.email, password: PASSWORD } });
    expect(after.status).toBe(429);
    // The shared session's account is untouched by all of it.
    expect((await stack.call('GET', '/api/session', { headers: { Cookie: cookie } })).status).toBe(200);
  });
});

function brokenChecksum(token: string): string {
  const last = token.at(-1)!;
  return token.slice(0, -1) + (last === 'a' ? 'b' : 'a');
}

describe('unknown routes', () => {
  /** No credentials, a `*` token, a session cookie: none of them turns a 404 into something else. */
  const credentials = () => [{}, { token: adminToken }, { headers: { Cookie: cookie } }];

  it.each([
    ['GET', '/api/v1/nope'],
    ['GET', '/api/v2/candidates'],
    ['GET', '/api/v1'],
    ['GET', '/api/v1/candidates/extra/segments'],
    ['GET', '/api/v1/Candidates'],
    ['POST', '/api/v1/nope'],
    ['GET', '/api'],
    ['GET', '/api/sessions'],
    ['GET', '/api/Session'],
    ['GET', '/api/session/extra'],
    ['POST', '/api/token'],
    ['DELETE', '/api/tokens/'],
    ['DELETE', `/api/tokens/${randomUUID()}/extra`],
    ['GET', '/api/v1/openapi.yaml'],
    ['GET', '/api/openapi.json'],
  ])('%s %s -> 404 { error: "Not found" }, with no credentials, a token or a session', async (method, path) => {
    expect(ROUTES.some((r) => r.method === method && matchPath(r.path, path))).toBe(false);
    for (const opts of credentials()) {
      const res = await stack.call(method, path, opts);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });

  it.each([
    ['DELETE', '/api/v1/candidates'],
    ['PUT', '/api/v1/candidates'],
    ['PATCH', '/api/v1/candidates'],
    ['POST', '/api/v1/requisitions'],
    ['DELETE', '/api/v1/pipeline'],
    ['PUT', '/api/v1/pipeline'],
    ['OPTIONS', '/api/v1/candidates'],
    ['POST', '/api/v1/openapi.json'],
    ['PUT', '/api/session'],
    ['PATCH', '/api/session'],
    ['DELETE', '/api/tokens'],
    ['GET', `/api/tokens/${randomUUID()}`],
    ['PATCH', `/api/tokens/${randomUUID()}`],
    ['OPTIONS', '/api/session'],
  ])('known path, wrong method: %s %s -> 404, with no credentials, a token or a session', async (method, path) => {
    expect(ROUTES.some((r) => r.method === method && matchPath(r.path, path))).toBe(false);
    expect(ROUTES.some((r) => matchPath(r.path, path))).toBe(true);
    for (const opts of credentials()) {
      const res = await stack.call(method, path, opts);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });
});

describe('authorizer cache', () => {
  // The deployed API caches the authorizer's result for 60 s per token
  // (AuthorizerResultTtlInSeconds, pinned in test/unit/stack.test.ts), and the local gateway
  // does the same by default. So a revoked or deleted token keeps working for up to 60 s.
  it('a cached token keeps working on every route after its lookup item is deleted', async () => {
    const { DeleteCommand, GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { ddb } = await import('../../lib/store/client');
    const { keys } = await import('../../lib/store/table');
    const { AUTHORIZER_CACHE_TTL_SECONDS } = await import('../../infra/local/gateway');
    expect(AUTHORIZER_CACHE_TTL_SECONDS).toBe(60);

    const token = await tenant.token(['*']);
    expect((await stack.call('GET', '/api/v1/pipeline', { token })).status).toBe(200);

    const key = keys.token(tokenDigest(token));
    expect((await ddb.send(new GetCommand({ TableName: stack.tableName, Key: key }))).Item).toBeDefined();
    await ddb.send(new DeleteCommand({ TableName: stack.tableName, Key: key }));
    expect((await ddb.send(new GetCommand({ TableName: stack.tableName, Key: key }))).Item).toBeUndefined();

    // Still cached: the same route and every other route (one policy per token).
    for (const r of TOKEN_ROUTES) {
      const res = await callRoute(r, { token });
      expect(res.status, label(r)).toBe(sampleFor(r).status);
    }
  });

  it('an uncached token whose lookup item is deleted is refused at once (the table is consulted)', async () => {
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    const { ddb } = await import('../../lib/store/client');
    const { keys } = await import('../../lib/store/table');
    const token = await tenant.token(['*']);
    await ddb.send(new DeleteCommand({ TableName: stack.tableName, Key: keys.token(tokenDigest(token)) }));
    const res = await stack.call('GET', '/api/v1/pipeline', { token });
    expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
  });
});

/**
 * Capture everything the process writes (streams and console) and the responses recorded
 * with `record`, for the leak checks below. Restore with `spies`.
 */
function captureOutput() {
  const captured: string[] = [];
  const text = (chunk: unknown) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (captured.push(text(chunk)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => (captured.push(text(chunk)), true)),
    ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void captured.push(args.map((a) => (a instanceof Error ? `${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '))),
    ),
  ];
  const responses: Array<[string, Response]> = [];
  const record = async (what: string, res: Promise<Response>) => {
    const r = await res;
    responses.push([what, r]);
    return r;
  };
  return { captured, spies, logStart: stack.logs.length, responses, record };
}

describe('secrets stay out of logs, responses and the table', () => {
  const STACK_TRACE = /\n\s*at |\bat \S+ \(|\(\S+:\d+:\d+\)|\.(?:ts|js|mjs):\d+|node_modules|"stack"/;

  it('no token or digest in stdout/stderr/console, gateway logs, response bodies or headers; error bodies are only { error, code, field? }', async () => {
    const { UpdateCommand, ScanCommand } = await import('@aws-sdk/lib-dynamodb');
    const { ddb } = await import('../../lib/store/client');
    const { keys } = await import('../../lib/store/table');

    const victim = await stack.tenant();
    const valid = await victim.token(['*']);
    const narrow = await victim.token(['pipeline:read']);
    const unknown = generateToken();
    const broken = brokenChecksum(valid);
    // A token whose lookup item is corrupt (no scopes): the authorizer itself fails -> 500.
    const corrupt = await victim.token(['*']);
    await ddb.send(
      new UpdateCommand({ TableName: stack.tableName, Key: keys.token(tokenDigest(corrupt)), UpdateExpression: 'REMOVE scopes' }),
    );
    // A tenant whose counter item is corrupt: the candidate write fails in DynamoDB -> 500 from
    // the handler's error boundary, which logs the error.
    const broke = await stack.tenant();
    const brokeToken = await broke.token(['*']);
    await ddb.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: keys.stats(broke.id),
        UpdateExpression: 'SET #t = :s',
        ExpressionAttributeNames: { '#t': 'total' },
        ExpressionAttributeValues: { ':s': 'corrupt' },
      }),
    );
    const secrets = [valid, narrow, unknown, broken, corrupt, brokeToken];

    const { captured, spies, logStart, responses, record } = captureOutput();
    let serverError: Response;
    let authorizerError: Response;
    try {
      for (const r of TOKEN_ROUTES) {
        for (const [name, token] of [['valid', valid], ['narrow', narrow], ['unknown', unknown], ['broken', broken]] as const) {
          await record(`${name} ${label(r)}`, callRoute(r, { token }));
        }
        // Accepted spellings of the scheme (RFC 7235) and refused ones, each carrying the token.
        await record(`lower-case scheme ${label(r)}`, callRoute(r, { headers: { Authorization: `bearer ${valid}` } }));
        await record(`two spaces ${label(r)}`, callRoute(r, { headers: { Authorization: `Bearer  ${valid}` } }));
        await record(`Token scheme ${label(r)}`, callRoute(r, { headers: { Authorization: `Token ${valid}` } }));
        await record(`token in a cookie ${label(r)}`, callRoute(r, { headers: { Cookie: `__Host-tp_session=${valid}` } }));
      }
      for (const r of SESSION_ROUTES) {
        await record(`token instead of a session ${label(r)}`, callRoute(r, { token: valid }));
      }
      await record('bad JSON', stack.call('POST', '/api/v1/candidates', { token: valid, rawBody: '{"name":', headers: { 'Content-Type': 'application/json' } }));
      await record('bad field', stack.call('POST', '/api/v1/candidates', { token: valid, body: { name: 'x', secret: valid } }));
      await record('bad query', stack.call('GET', `/api/v1/candidates?limit=${valid}`, { token: valid }));
      await record('token in query', stack.call('GET', `/api/v1/candidates?token=${valid}`, { token: valid }));
      authorizerError = await record('corrupt grant', stack.call('GET', '/api/v1/pipeline', { token: corrupt }));
      serverError = await record('corrupt counters', stack.call('POST', '/api/v1/candidates', { token: brokeToken, body: { name: 'Boom' } }));
    } finally {
      for (const s of spies) s.mockRestore();
    }

    // The failure paths really failed, and the capture really captured the handler's error log.
    expect([authorizerError.status, authorizerError.body]).toEqual([500, { error: GATEWAY_ERRORS.authorizerFailure.error, code: 'internal_error' }]);
    const requestId = serverError.headers.get('x-request-id');
    expect([serverError.status, serverError.body]).toEqual([500, { error: `internal error (request id ${requestId})`, code: 'internal_error' }]);
    const output = captured.join('\n');
    expect(output).toMatch(/"message":"request completed".*"status":500/);
    const logs = stack.logs.slice(logStart).join('\n');
    expect(logs).toMatch(/ 500 /);

    for (const secret of secrets) {
      const digest = tokenDigest(secret);
      for (const [where, haystack] of [['process output', output], ['gateway logs', logs]] as const) {
        expect(haystack.includes(secret), `token in ${where}`).toBe(false);
        expect(haystack.includes(digest), `digest in ${where}`).toBe(false);
        expect(haystack.includes(secret.slice(4)), `token body in ${where}`).toBe(false);
      }
    }
    for (const [what, res] of responses) {
      const headers = JSON.stringify([...res.headers.entries()]);
      for (const secret of secrets) {
        for (const s of [secret, tokenDigest(secret)]) {
          expect(res.text.includes(s), `${what}: secret in body ${res.text}`).toBe(false);
          expect(headers.includes(s), `${what}: secret in headers ${headers}`).toBe(false);
        }
      }
      if (res.status >= 400) {
        expect(res.body, `${what}: ${res.text}`).toMatchObject({ error: expect.any(String), code: expect.any(String) });
        expect(Object.keys(res.body).filter((k) => !['error', 'code', 'field'].includes(k)), what).toEqual([]);
        expect(res.text, `${what}: stack-trace-like text`).not.toMatch(STACK_TRACE);
      }
    }
    expect(responses.filter(([, r]) => r.status < 300).length).toBeGreaterThan(0);
    expect(responses.filter(([, r]) => r.status === 401).length).toBeGreaterThan(0);
    expect(responses.filter(([, r]) => r.status === 403).length).toBeGreaterThan(0);
    expect(responses.filter(([, r]) => r.status === 400).length).toBeGreaterThan(0);

    // Only the digest is stored: no item anywhere in the table holds a token in clear.
    const items: unknown[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await ddb.send(new ScanCommand({ TableName: stack.tableName, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    const dump = JSON.stringify(items);
    expect(dump).toContain(tokenDigest(valid)); // sanity: the scan sees the token items
    for (const secret of [valid, narrow, corrupt, brokeToken, adminToken]) expect(dump.includes(secret)).toBe(false);
  });
  it('session ids and passwords stay out of logs, responses (but the Set-Cookie of the login) and the table', async () => {
    const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
    const { ddb } = await import('../../lib/store/client');
    const victim = await stack.tenant();
    const member = await victim.user('member');
    const wrongPassword = `wrong ${randomUUID()}`;

    const { captured, spies, logStart, responses, record } = captureOutput();
    let login: Response;
    let c: string;
    try {
      await record('wrong password', stack.call('POST', '/api/session', { body: { email: member.email, password: wrongPassword } }));
      await record('unknown email', stack.call('POST', '/api/session', { body: { email: `nobody-${randomUUID()}@example.com`, password: PASSWORD } }));
      login = await record('login', stack.call('POST', '/api/session', { body: { email: member.email, password: PASSWORD } }));
      c = login.headers.getSetCookie().find((x) => x.startsWith('__Host-tp_session='))!.split(';')[0]!;
      for (const r of SESSION_ROUTES.filter((x) => !logsOut(x))) {
        await record(`session ${label(r)}`, callRoute(r, { cookie: c }));
        await record(`cross-site ${label(r)}`, callRoute(r, { cookie: c, headers: { Origin: 'https://evil.example' } }));
        await record(`session as token ${label(r)}`, callRoute(r, { headers: { Authorization: `Bearer ${c.split('=')[1]}` } }));
      }
      await record('bad body', stack.call('POST', '/api/tokens', { body: { name: c, scopes: 'x' }, headers: { Cookie: c } }));
      await record('logout', stack.call('DELETE', '/api/session', { headers: { Cookie: c } }));
      await record('after logout', stack.call('GET', '/api/session', { headers: { Cookie: c } }));
    } finally {
      for (const s of spies) s.mockRestore();
    }
    expect(login!.status).toBe(200);
    expect(responses.find(([w]) => w === 'after logout')![1].status).toBe(401);
    const id = c!.split('=')[1]!;
    const secrets = [id, sessionDigest(id), PASSWORD, wrongPassword];

    const output = captured.join('\n');
    const logs = stack.logs.slice(logStart).join('\n');
    for (const secret of secrets) {
      expect(output.includes(secret), `secret in process output`).toBe(false);
      expect(logs.includes(secret), `secret in gateway logs`).toBe(false);
    }
    for (const [what, res] of responses) {
      const headers = JSON.stringify([...res.headers.entries()].filter(([k]) => !(what === 'login' && k === 'set-cookie')));
      for (const secret of secrets) {
        expect(res.text.includes(secret), `${what}: secret in body ${res.text}`).toBe(false);
        expect(headers.includes(secret), `${what}: secret in headers ${headers}`).toBe(false);
      }
      if (res.status >= 400) expect(Object.keys(res.body ?? {}).filter((k) => !['error', 'code', 'field'].includes(k)), `${what}: ${res.text}`).toEqual([]);
    }

    // Only the session digest and the password hash are stored.
    const items: unknown[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await ddb.send(new ScanCommand({ TableName: stack.tableName, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    const dump = JSON.stringify(items);
    expect(dump).toContain(member.email); // sanity: the scan sees the user
    for (const secret of [id, PASSWORD, wrongPassword, cookie.split('=')[1]!]) expect(dump.includes(secret)).toBe(false);
  });
});
