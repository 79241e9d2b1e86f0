/**
 * Authentication and authorization through the local gateway, which runs the real TOKEN
 * authorizer (policy cached per Authorization header like API Gateway) and the real session
 * REQUEST authorizer (never cached). Expectations are derived from the route table, so a new
 * route is covered automatically (add a sample request for it below, the checks fail until
 * you do): token routes need a Bearer token with the route's scope, session routes the session
 * cookie, public routes (auth 'none') nothing.
 *
 * This file: scope matrix; 401 for a missing or invalid token; the Bearer scheme is case-insensitive and may be followed by several spaces (RFC 7235); authorizer cache.
 */
import { describe, expect, it } from 'vitest';
import { generateToken, tokenDigest } from '../../../lib/auth/token';
import {
  FORBIDDEN,
  NAMED_SCOPES,
  TOKEN_ROUTES,
  UNAUTHORIZED,
  adminToken,
  brokenChecksum,
  callRoute,
  candidateCount,
  cookie,
  expectSample,
  label,
  matrix,
  sampleFor,
  stack,
  tenant,
  useAuthFixture,
  useScopeMatrix,
} from './fixture';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../../lib/store/client';
import { keys } from '../../../lib/store/table';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../../../dev/gateway';

useAuthFixture();
useScopeMatrix();

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

/** A route of each kind of request: a query, a body, a body and a path parameter. */
const SAMPLE_ROUTES = ['GET /api/v1/candidates', 'POST /api/v1/candidates', 'PATCH /api/v1/candidates/{id}'].map(
  (name) => TOKEN_ROUTES.find((r) => label(r) === name)!,
);

describe('401 for a missing or invalid token', () => {
  it('the sample routes are token routes', () => {
    expect(SAMPLE_ROUTES.every(Boolean)).toBe(true);
  });

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

  // Each case on a few routes: what the authorizer makes of a header does not depend on the route
  // (test/unit/credentials.test.ts holds every case against every token route, before any read).
  // The cases only the table can refuse go to every route: each token route is behind the token
  // authorizer, and its refusal is the gateway's 401 there.
  const EVERY_ROUTE = new Set(['no Authorization header', 'an unknown, well-formed token']);
  for (const [name, headers] of cases) {
    const where = EVERY_ROUTE.has(name) ? 'every token route' : 'a GET, a POST and a PATCH';
    it(`${name} -> 401 { error } on ${where}`, async () => {
      for (const r of EVERY_ROUTE.has(name) ? TOKEN_ROUTES : SAMPLE_ROUTES) {
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

  // On a few routes, as above: the * token passes on every route in the scope matrix.
  for (const [name, spell] of spellings) {
    it(`${name}: a GET, a POST and a PATCH answer their normal status, not 401`, async () => {
      for (const r of SAMPLE_ROUTES) {
        const res = await callRoute(r, { headers: { Authorization: spell(adminToken) } });
        expect(res.status, `${label(r)}: ${res.text}`).not.toBe(401);
        expectSample(r, res);
      }
    });

    it(`${name}: a single-scope token still gets 403 on the other routes`, async () => {
      const token = await tenant.token(['pipeline:read']);
      for (const r of [...SAMPLE_ROUTES, TOKEN_ROUTES.find((x) => x.scope === 'pipeline:read')!]) {
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

describe('authorizer cache', () => {
  // The deployed API caches the authorizer's result for 60 s per token
  // (AuthorizerResultTtlInSeconds, pinned in test/unit/stack/api.test.ts), and the local gateway
  // does the same by default. So a revoked or deleted token keeps working for up to 60 s.
  it('a cached token keeps working on every route after its lookup item is deleted', async () => {
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
    const token = await tenant.token(['*']);
    await ddb.send(new DeleteCommand({ TableName: stack.tableName, Key: keys.token(tokenDigest(token)) }));
    const res = await stack.call('GET', '/api/v1/pipeline', { token });
    expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
  });
});
