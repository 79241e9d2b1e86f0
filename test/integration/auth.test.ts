/**
 * Authentication and authorization through the local gateway, which runs the real TOKEN
 * authorizer, evaluates its policy and caches it per Authorization header like API Gateway.
 * Expectations are derived from the route table, so a new route is covered automatically
 * (add a sample request for it below, the matrix fails until you do).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateToken, tokenDigest } from '../../lib/auth/token';
import { GATEWAY_ERRORS } from '../../lib/gateway-responses';
import { SCOPES, type Scope } from '../../lib/model';
import { routes, type Route } from '../../lib/routes';
import { startStack, type Stack } from '../helpers/stack';

type Tenant = Awaited<ReturnType<Stack['tenant']>>;
type Response = Awaited<ReturnType<Stack['call']>>;

const ROUTES: readonly Route[] = routes;
const TOKEN_ROUTES = ROUTES.filter((r) => r.auth === 'token');
const NAMED_SCOPES = SCOPES.filter((s): s is Exclude<Scope, '*'> => s !== '*');
const label = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;

const UNAUTHORIZED = { error: GATEWAY_ERRORS.unauthorized.error };
const FORBIDDEN = { error: GATEWAY_ERRORS.accessDenied.error };
const NOT_FOUND = { error: GATEWAY_ERRORS.notFound.error };

/**
 * A request per route that a token holding the route's scope may make, and the status it gets.
 * POST /pipeline names a candidate that does not exist: 404 comes from the handler, so the
 * request got past the authorizer and the policy.
 */
const SAMPLES: Record<string, () => { body?: unknown; status: number }> = {
  'GET /api/v1/candidates': () => ({ status: 200 }),
  'POST /api/v1/candidates': () => ({ body: { name: 'Scope Check' }, status: 201 }),
  'GET /api/v1/requisitions': () => ({ status: 200 }),
  'GET /api/v1/pipeline': () => ({ status: 200 }),
  'POST /api/v1/pipeline': () => ({ body: { candidate_id: randomUUID(), stage: 'interviewed' }, status: 404 }),
};
const sampleFor = (r: Route) => {
  const make = SAMPLES[label(r)];
  expect(make, `add a sample request for ${label(r)} to SAMPLES`).toBeDefined();
  return make!();
};
/** Path of a route with its parameters filled in. */
const pathOf = (r: Route) => r.path.replace(/\{[^}]+\}/g, randomUUID());
const callRoute = (r: Route, opts: { token?: string; headers?: Record<string, string> } = {}) => {
  const { body } = sampleFor(r);
  return stack.call(r.method, pathOf(r), { ...opts, body });
};

let stack: Stack;
let tenant: Tenant;
let adminToken: string;
/** Per route: a token with every scope but the route's, and one with only the route's. */
const matrix = new Map<Route, { without: string; only: string }>();

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  adminToken = await tenant.token(['*']);
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
    ['an unknown, well-formed token', () => ({ Authorization: `Bearer ${generateToken()}` })],
    ['a token with a broken checksum', () => ({ Authorization: `Bearer ${brokenChecksum(adminToken)}` })],
    ['a truncated token', () => ({ Authorization: `Bearer ${adminToken.slice(0, -1)}` })],
    ['the token digest instead of the token', () => ({ Authorization: `Bearer ${tokenDigest(adminToken)}` })],
    // functions/authorizer.ts matches /^Bearer (\S+)$/ case-sensitively, so the scheme must be
    // spelled `Bearer` exactly (RFC 7235 would allow any case; this API does not).
    ['lower-case "bearer" scheme', () => ({ Authorization: `bearer ${adminToken}` })],
    ['upper-case "BEARER" scheme', () => ({ Authorization: `BEARER ${adminToken}` })],
    ['two spaces after Bearer', () => ({ Authorization: `Bearer  ${adminToken}` })],
    ['the token without a scheme', () => ({ Authorization: adminToken })],
    ['the token followed by more text', () => ({ Authorization: `Bearer ${adminToken} extra` })],
    ['two tokens', () => ({ Authorization: `Bearer ${adminToken}, Bearer ${adminToken}` })],
    ['Token scheme', () => ({ Authorization: `Token ${adminToken}` })],
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
    await stack.call('GET', '/api/v1/pipeline', { headers: { Authorization: `bearer ${adminToken}` } });
    const res = await stack.call('GET', '/api/v1/pipeline', { token: adminToken });
    expect(res.status).toBe(200);
  });

  it('a token of another tenant still authenticates (tenancy comes from the token, checked in isolation.test.ts)', async () => {
    const other = await stack.tenant();
    const res = await stack.call('GET', '/api/v1/pipeline', { token: await other.token(['pipeline:read']) });
    expect(res.status).toBe(200);
  });
});

function brokenChecksum(token: string): string {
  const last = token.at(-1)!;
  return token.slice(0, -1) + (last === 'a' ? 'b' : 'a');
}

describe('unknown routes', () => {
  it.each([
    ['GET', '/api/v1/nope'],
    ['GET', '/'],
    ['GET', '/api/v2/candidates'],
    ['GET', '/api/v1'],
    ['GET', '/api/v1/candidates/extra/segments'],
    ['GET', '/api/v1/Candidates'],
    ['POST', '/api/v1/nope'],
  ])('%s %s -> 404 { error: "Not found" }, with or without a token', async (method, path) => {
    for (const token of [undefined, adminToken]) {
      const res = await stack.call(method, path, { token });
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
  ])('known path, wrong method: %s %s -> 404, with or without a token', async (method, path) => {
    expect(ROUTES.some((r) => r.method === method && r.path === path)).toBe(false);
    for (const token of [undefined, adminToken]) {
      const res = await stack.call(method, path, { token });
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

describe('secrets stay out of logs, responses and the table', () => {
  const STACK_TRACE = /\n\s*at |\bat \S+ \(|\(\S+:\d+:\d+\)|\.(?:ts|js|mjs):\d+|node_modules|"stack"/;

  it('no token or digest in stdout/stderr/console, gateway logs, response bodies or headers; error bodies are bare { error }', async () => {
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

    const captured: string[] = [];
    const text = (chunk: unknown) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    const spies = [
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (captured.push(text(chunk)), true)),
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => (captured.push(text(chunk)), true)),
      ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) =>
        vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void captured.push(args.map((a) => (a instanceof Error ? `${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '))),
      ),
    ];
    const logStart = stack.logs.length;
    const responses: Array<[string, Response]> = [];
    const record = async (what: string, res: Promise<Response>) => {
      const r = await res;
      responses.push([what, r]);
      return r;
    };
    let serverError: Response;
    let authorizerError: Response;
    try {
      for (const r of TOKEN_ROUTES) {
        for (const [name, token] of [['valid', valid], ['narrow', narrow], ['unknown', unknown], ['broken', broken]] as const) {
          await record(`${name} ${label(r)}`, callRoute(r, { token }));
        }
        await record(`lower-case scheme ${label(r)}`, callRoute(r, { headers: { Authorization: `bearer ${valid}` } }));
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
    expect([authorizerError.status, authorizerError.body]).toEqual([500, { error: GATEWAY_ERRORS.authorizerFailure.error }]);
    expect([serverError.status, serverError.body]).toEqual([500, { error: 'Internal server error' }]);
    const output = captured.join('\n');
    expect(output).toMatch(/Unhandled error/);
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
        expect(res.body, `${what}: ${res.text}`).toEqual({ error: expect.any(String) });
        expect(Object.keys(res.body), what).toEqual(['error']);
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
});
