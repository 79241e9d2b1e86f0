/**
 * Authentication and authorization through the local gateway, which runs the real TOKEN
 * authorizer (policy cached per Authorization header like API Gateway) and the real session
 * REQUEST authorizer (never cached). Expectations are derived from the route table, so a new
 * route is covered automatically (add a sample request for it below, the checks fail until
 * you do): token routes need a Bearer token with the route's scope, session routes the session
 * cookie, public routes (auth 'none') nothing.
 *
 * This file: session routes: the session cookie, checked on every request; public routes (auth none) need no credentials; login lockout (POST /api/session).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionDigest } from '../../../lib/auth/session';
import { generateToken } from '../../../lib/auth/token';
import type { Route } from '../../../lib/routes';
import { PASSWORD } from '../../helpers/stack';
import {
  PUBLIC_ROUTES,
  SESSION_ROUTES,
  UNAUTHORIZED,
  adminToken,
  callRoute,
  cookie,
  expectSample,
  label,
  logsOut,
  probeIdFor,
  probeTokenId,
  probeWebhookId,
  stack,
  tenant,
  user,
  useAuthFixture,
} from './fixture';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../../lib/store/client';
import { keys } from '../../../lib/store/table';

useAuthFixture();

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

  // Each case on a few routes that would change the probes: what the session authorizer makes of
  // a Cookie header does not depend on the route (test/unit/credentials.test.ts holds every case
  // against every session route, before any read). The cases only the table can refuse go to
  // every route: each session route is behind the session authorizer, and its refusal is the
  // gateway's 401 there.
  const EVERY_ROUTE = new Set(['no cookie', 'an unknown, well-formed session id']);
  const sampleRoutes = ['GET /api/tokens', 'DELETE /api/tokens/{id}', 'PATCH /api/webhooks/{id}'].map(
    (name) => SESSION_ROUTES.find((r) => label(r) === name)!,
  );
  it('the sample routes are session routes', () => {
    expect(sampleRoutes.every(Boolean)).toBe(true);
  });

  for (const [name, opts] of refusals) {
    const where = EVERY_ROUTE.has(name) ? 'every session route' : 'a GET, a DELETE and a PATCH';
    it(`${name} -> 401 { error } on ${where}, and nothing happens`, async () => {
      const before = await tokenIds();
      const hooksBefore = await webhooks();
      for (const r of EVERY_ROUTE.has(name) ? SESSION_ROUTES : sampleRoutes) {
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
  it('are exactly the OpenAPI document, the login, the job board, the careers pages, applying to a published job, its CV upload (JSON, and as the careers page step), the careers page application form and withdrawing through the link', () => {
    expect(PUBLIC_ROUTES.map(label).sort()).toEqual([
      'GET /api/boards/{slug}/jobs',
      'GET /api/boards/{slug}/jobs/{id}',
      'GET /api/v1/openapi.json',
      'GET /careers/{slug}',
      'GET /careers/{slug}/jobs/{id}',
      'GET /careers/{slug}/withdraw',
      'POST /api/boards/{slug}/jobs/{id}/applications',
      'POST /api/boards/{slug}/jobs/{id}/uploads',
      'POST /api/session',
      'POST /careers/{slug}/jobs/{id}/apply',
      'POST /careers/{slug}/jobs/{id}/cv',
      'POST /careers/{slug}/withdraw',
    ]);
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
    const victim = await tenant.user('recruiter');
    const guesses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        stack.call('POST', '/api/session', { body: { email: victim.email, password: `wrong guess ${i}` } }),
      ),
    );
    // Each refused, as a wrong password (401) or already locked (429); none let in.
    for (const res of guesses) expect([401, 429], res.text).toContain(res.status);
    const after = await stack.call('POST', '/api/session', { body: { email: victim.email, password: PASSWORD } });
    expect([after.status, after.body], '8 failed logins, then the right password').toEqual([
      429,
      { error: expect.stringMatching(/too many failed sign-ins/), code: 'rate_limited' },
    ]);
  });

  it('five sequential wrong passwords lock the account, even for the right password (control)', async () => {
    const victim = await tenant.user('recruiter');
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
