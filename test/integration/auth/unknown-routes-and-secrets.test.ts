/**
 * Authentication and authorization through the local gateway, which runs the real TOKEN
 * authorizer (policy cached per Authorization header like API Gateway) and the real session
 * REQUEST authorizer (never cached). Expectations are derived from the route table, so a new
 * route is covered automatically (add a sample request for it below, the checks fail until
 * you do): token routes need a Bearer token with the route's scope, session routes the session
 * cookie, public routes (auth 'none') nothing.
 *
 * This file: unknown routes; secrets stay out of logs, responses and the table.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionDigest } from '../../../lib/auth/session';
import { generateToken, tokenDigest } from '../../../lib/auth/token';
import { GATEWAY_ERRORS } from '../../../lib/gateway-responses';
import { matchPath } from '../../../lib/routes';
import { PASSWORD } from '../../helpers/stack';
import {
  NOT_FOUND,
  ROUTES,
  type Response,
  SESSION_ROUTES,
  TOKEN_ROUTES,
  adminToken,
  brokenChecksum,
  callRoute,
  captureOutput,
  cookie,
  label,
  logsOut,
  stack,
  useAuthFixture,
} from './fixture';
import { UpdateCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../../lib/store/client';
import { keys, STATS_SHARDS } from '../../../lib/store/table';

useAuthFixture();

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
    ['DELETE', '/api/v1/requisitions'],
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

describe('secrets stay out of logs, responses and the table', () => {
  const STACK_TRACE = /\n\s*at |\bat \S+ \(|\(\S+:\d+:\d+\)|\.(?:ts|js|mjs):\d+|node_modules|"stack"/;

  it('no token or digest in stdout/stderr/console, gateway logs, response bodies or headers; error bodies are only { error, code, field? }', async () => {
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
    // A tenant whose counter items are corrupt (every shard: a write adds to one of them): the
    // candidate write fails in DynamoDB -> 500 from the handler's error boundary, which logs the error.
    const broke = await stack.tenant();
    const brokeToken = await broke.token(['*']);
    for (let k = 0; k < STATS_SHARDS; k++)
      await ddb.send(
        new UpdateCommand({
          TableName: stack.tableName,
          Key: keys.statsShard(broke.id, k),
          UpdateExpression: 'SET #t = :s',
          ExpressionAttributeNames: { '#t': 'total' },
          ExpressionAttributeValues: { ':s': 'corrupt' },
        }),
      );
    const secrets = [valid, narrow, unknown, broken, corrupt, brokeToken];

    const { captured, restore, logStart, responses, record } = captureOutput();
    let serverError: Response;
    let authorizerError: Response;
    try {
      for (const r of TOKEN_ROUTES) {
        for (const [name, token] of [
          ['valid', valid],
          ['narrow', narrow],
          ['unknown', unknown],
          ['broken', broken],
        ] as const) {
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
      await record(
        'bad JSON',
        stack.call('POST', '/api/v1/candidates', { token: valid, rawBody: '{"name":', headers: { 'Content-Type': 'application/json' } }),
      );
      await record('bad field', stack.call('POST', '/api/v1/candidates', { token: valid, body: { name: 'x', secret: valid } }));
      await record('bad query', stack.call('GET', `/api/v1/candidates?limit=${valid}`, { token: valid }));
      await record('token in query', stack.call('GET', `/api/v1/candidates?token=${valid}`, { token: valid }));
      authorizerError = await record('corrupt grant', stack.call('GET', '/api/v1/pipeline', { token: corrupt }));
      serverError = await record(
        'corrupt counters',
        stack.call('POST', '/api/v1/candidates', { token: brokeToken, body: { name: 'Boom' } }),
      );
    } finally {
      restore();
    }

    // The failure paths really failed, and the capture really captured the handler's error log.
    expect([authorizerError.status, authorizerError.body]).toEqual([
      500,
      { error: GATEWAY_ERRORS.authorizerFailure.error, code: 'internal_error' },
    ]);
    const requestId = serverError.headers.get('x-request-id');
    expect([serverError.status, serverError.body]).toEqual([
      500,
      { error: `internal error (request id ${requestId})`, code: 'internal_error' },
    ]);
    const output = captured.join('\n');
    expect(output).toMatch(/"message":"request completed".*"status":500/);
    const logs = stack.logs.slice(logStart).join('\n');
    expect(logs).toMatch(/ 500 /);

    for (const secret of secrets) {
      const digest = tokenDigest(secret);
      for (const [where, haystack] of [
        ['process output', output],
        ['gateway logs', logs],
      ] as const) {
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
        expect(
          Object.keys(res.body).filter((k) => !['error', 'code', 'field'].includes(k)),
          what,
        ).toEqual([]);
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
    const victim = await stack.tenant();
    const member = await victim.user('recruiter');
    const wrongPassword = `wrong ${randomUUID()}`;

    const { captured, restore, logStart, responses, record } = captureOutput();
    let login: Response;
    let c: string;
    try {
      await record('wrong password', stack.call('POST', '/api/session', { body: { email: member.email, password: wrongPassword } }));
      await record(
        'unknown email',
        stack.call('POST', '/api/session', { body: { email: `nobody-${randomUUID()}@example.com`, password: PASSWORD } }),
      );
      login = await record('login', stack.call('POST', '/api/session', { body: { email: member.email, password: PASSWORD } }));
      c = login.headers
        .getSetCookie()
        .find((x) => x.startsWith('__Host-tp_session='))!
        .split(';')[0]!;
      for (const r of SESSION_ROUTES.filter((x) => !logsOut(x))) {
        await record(`session ${label(r)}`, callRoute(r, { cookie: c }));
        await record(`cross-site ${label(r)}`, callRoute(r, { cookie: c, headers: { Origin: 'https://evil.example' } }));
        await record(`session as token ${label(r)}`, callRoute(r, { headers: { Authorization: `Bearer ${c.split('=')[1]}` } }));
      }
      await record('bad body', stack.call('POST', '/api/tokens', { body: { name: c, scopes: 'x' }, headers: { Cookie: c } }));
      await record('logout', stack.call('DELETE', '/api/session', { headers: { Cookie: c } }));
      await record('after logout', stack.call('GET', '/api/session', { headers: { Cookie: c } }));
    } finally {
      restore();
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
      if (res.status >= 400)
        expect(
          Object.keys(res.body ?? {}).filter((k) => !['error', 'code', 'field'].includes(k)),
          `${what}: ${res.text}`,
        ).toEqual([]);
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
