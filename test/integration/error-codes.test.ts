/**
 * Error bodies: `{ error, code, field? }`. One test per way a code is produced (handler
 * boundary, domain, the local gateway's own refusals), the message reads as a sentence, names
 * made of invisible characters are refused, and a sweep over the route table finds no 4xx
 * without a code from ERROR_CODES.
 */
import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../lib/errors';
import { GATEWAY_ERRORS } from '../../lib/gateway-responses';
import { routes, type Route } from '../../lib/routes';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

const ROUTES: readonly Route[] = routes;
const label = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;

let stack: Stack;
let tenant: TestTenant;
let token: string;
let admin: { id: string; email: string };
let adminCookie: string;
let memberCookie: string;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  admin = await tenant.user('admin');
  const member = await tenant.user('recruiter');
  [adminCookie, memberCookie] = await Promise.all([stack.login(admin.email, PASSWORD), stack.login(member.email, PASSWORD)]);
});
afterAll(() => stack.close());

const asAdmin = (body?: unknown, headers: Record<string, string> = {}) => ({ body, headers: { Cookie: adminCookie, ...headers } });

describe('codes from the handler boundary', () => {
  it('a missing field: invalid_field, field, "<field> is required"', async () => {
    const res = await stack.call('POST', '/api/v1/candidates', { token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'name is required', code: 'invalid_field', field: 'name' });
  });

  it('an element of an array is named with its index, as a sentence', async () => {
    const res = await stack.call('POST', '/api/tokens', asAdmin({ name: 'ci', scopes: ['candidates:read', 'candidates:delete'] }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_field');
    expect(res.body.field).toBe('scopes[1]');
    expect(res.body.error).toMatch(/^scopes\[1\] must be one of candidates:read, /);
    expect(res.body.error).not.toMatch(/scopes\.\d|: /);
  });

  it('a nested field is named with its dotted path', async () => {
    const res = await stack.call('PUT', '/api/settings/pipeline', asAdmin({ stuck_days: { applied: -1 } }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_field', field: 'stuck_days.applied' });
    expect(res.body.error).toMatch(/^stuck_days\.applied must be between 0 and \d+$/);
  });

  it('an unknown field: invalid_field naming it', async () => {
    const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Ada', nickname: 'A' } });
    expect(res.body).toEqual({ error: 'unknown body field "nickname"', code: 'invalid_field', field: 'nickname' });
    const nested = await stack.call('PUT', '/api/settings/pipeline', asAdmin({ stuck_days: { lunch: 3 } }));
    expect(nested.body).toEqual({ error: 'unknown body field "lunch" in stuck_days', code: 'invalid_field', field: 'stuck_days.lunch' });
  });

  it('a query parameter given twice: invalid_field naming it', async () => {
    const res = await stack.call('GET', '/api/v1/candidates?limit=1&limit=2', { token });
    expect(res.body).toEqual({ error: 'limit must be given at most once', code: 'invalid_field', field: 'limit' });
  });

  it('a bad path parameter: invalid_field, field id', async () => {
    const res = await stack.call('GET', '/api/v1/candidates/not-a-uuid', { token });
    expect(res.body).toEqual({ error: 'id must be a UUID', code: 'invalid_field', field: 'id' });
  });

  it('a schema check without a message of ours still reads as a sentence about the field', async () => {
    const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Ada', email: `${'a'.repeat(250)}@example.com` } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('email');
    expect(res.body.error).toMatch(/^email (must|is) /);
  });

  it('a body that is not JSON, or not an object: invalid_request without field', async () => {
    const bad = await stack.call('POST', '/api/v1/candidates', {
      token,
      rawBody: '{"name":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(bad.body).toEqual({ error: 'request body is not valid JSON', code: 'invalid_request' });
    const array = await stack.call('POST', '/api/v1/candidates', { token, body: [] });
    expect(array.body).toEqual({ error: 'body must be a JSON object', code: 'invalid_request' });
  });

  it('a rule across fields: invalid_request', async () => {
    const res = await stack.call('PATCH', `/api/v1/candidates/${randomUUID()}`, { token, body: {} });
    expect(res.body).toEqual({ error: 'body must change at least one of name, email, phone, resume_url, req_id', code: 'invalid_request' });
    const both = await stack.call('GET', '/api/v1/candidates?cursor=abc&offset=5', { token });
    expect(both.body).toEqual({ error: 'use either cursor or offset, not both', code: 'invalid_request' });
  });

  it('a body that is not JSON by its Content-Type: unsupported_media_type', async () => {
    const res = await stack.call('POST', '/api/v1/candidates', { token, rawBody: 'name=Ada', headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'Content-Type must be application/json', code: 'unsupported_media_type' });
  });

  it('a cross-site write: forbidden', async () => {
    const res = await stack.call(
      'POST',
      '/api/tokens',
      asAdmin({ name: 'x', scopes: ['candidates:read'] }, { Origin: 'https://evil.example' }),
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'cross-site request refused', code: 'forbidden' });
  });

  it('a member calling an admin route: forbidden', async () => {
    const res = await stack.call('PUT', '/api/settings/pipeline', { body: { stuck_days: {} }, headers: { Cookie: memberCookie } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden' });
    expect(res.body.field).toBeUndefined();
  });
});

describe('codes from the domain', () => {
  it('an unknown resource: not_found', async () => {
    const res = await stack.call('GET', `/api/v1/candidates/${randomUUID()}`, { token });
    expect(res.body).toEqual({ error: 'candidate not found', code: 'not_found' });
  });

  it('an unknown resource named by a field: not_found with that field', async () => {
    const res = await stack.call('GET', `/api/v1/candidates?req_id=${randomUUID()}`, { token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'requisition not found', code: 'not_found', field: 'req_id' });
  });

  it('a stale from_stage: stale_stage with field from_stage', async () => {
    const created = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Grace' } });
    const res = await stack.call('POST', '/api/v1/pipeline', {
      token,
      body: { candidate_id: created.body.data.id, stage: 'ai_screened', from_stage: 'interviewed' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.stringContaining('candidate is in stage applied'), code: 'stale_stage', field: 'from_stage' });
  });

  it('a conflict with the current state: conflict', async () => {
    const res = await stack.call('POST', '/api/members', asAdmin({ email: admin.email, role: 'recruiter' }));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', field: 'email' });
  });

  it('a recruiter granting *: forbidden with field scopes', async () => {
    const res = await stack.call('POST', '/api/tokens', { body: { name: 'all', scopes: ['*'] }, headers: { Cookie: memberCookie } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: "a recruiter may not grant *: a token can do at most what its creator's role may",
      code: 'forbidden',
      field: 'scopes',
    });
  });

  it('a wrong password: unauthorized', async () => {
    const res = await stack.call('POST', '/api/session', { body: { email: admin.email, password: 'not the password at all' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'email or password is incorrect', code: 'unauthorized' });
  });

  it('too many failed sign-ins: rate_limited with Retry-After', async () => {
    const email = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    let last: Awaited<ReturnType<Stack['call']>> | undefined;
    for (let i = 0; i < 6; i++) last = await stack.call('POST', '/api/session', { body: { email, password: 'wrong password here' } });
    expect(last!.status).toBe(429);
    expect(last!.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a webhook URL on a link-local address: one sentence, one pair of parentheses, field url', async () => {
    const res = await stack.call('POST', '/api/webhooks', asAdmin({ url: 'https://169.254.169.254/latest' }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_field');
    expect(res.body.field).toBe('url');
    expect(res.body.error).toBe(
      'url must not point at a non-public address: 169.254.169.254 is link-local (169.254.0.0/16), which includes cloud metadata 169.254.169.254',
    );
    expect(res.body.error).not.toMatch(/\([^)]*\(|\)\s*\(/);
  });
});

describe('names made only of invisible characters are refused', () => {
  const INVISIBLE = [
    ['spaces', '   '],
    ['zero-width space', '\u200B'],
    ['zero-width joiner and non-joiner', '\u200D\u200C'],
    ['byte-order mark', '\uFEFF'],
    ['word joiner', '\u2060\u2060'],
    ['bidi controls', '\u202E\u2066\u2069'],
    ['Hangul filler', '\u3164'],
    ['no-break and ideographic spaces', '\u00A0\u3000'],
    ['soft hyphen', '\u00AD'],
    ['variation selector', '\uFE0F'],
    ['a mix', ' \u200B\u2060\uFEFF\u202A '],
  ] as const;

  it.each(INVISIBLE)('candidate name of %s: 400 on create and on PATCH', async (_, name) => {
    const create = await stack.call('POST', '/api/v1/candidates', { token, body: { name } });
    expect(create.status).toBe(400);
    expect(create.body).toMatchObject({ code: 'invalid_field', field: 'name' });
    // Bidi embeddings and overrides are refused as such before the visibility check.
    expect(create.body.error).toMatch(
      /^name must (not be empty|contain a visible character|not contain bidirectional control characters)$/,
    );
    const ok = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Visible' } });
    const patch = await stack.call('PATCH', `/api/v1/candidates/${ok.body.data.id}`, { token, body: { name } });
    expect(patch.status).toBe(400);
    expect(patch.body).toMatchObject({ code: 'invalid_field', field: 'name' });
  });

  it.each(INVISIBLE)('token name of %s: 400', async (_, name) => {
    const res = await stack.call('POST', '/api/tokens', asAdmin({ name, scopes: ['candidates:read'] }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_field', field: 'name' });
  });

  it.each(INVISIBLE)('webhook description of %s: 400 on create and on update', async (_, description) => {
    const res = await stack.call('POST', '/api/webhooks', asAdmin({ url: 'https://hooks.example.com/a', description }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: /[\u202A-\u202E\u2066-\u2069]/.test(description)
        ? 'description must not contain bidirectional control characters'
        : 'description must contain a visible character (or be empty)',
      code: 'invalid_field',
      field: 'description',
    });
  });

  it('visible names with invisible characters inside them are kept', async () => {
    const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Zoë\u200DX' } });
    expect(res.status).toBe(201);
    const emoji = await stack.call('POST', '/api/tokens', asAdmin({ name: '👩‍💻 deploy', scopes: ['candidates:read'] }));
    expect(emoji.status).toBe(201);
    const hook = await stack.call('POST', '/api/webhooks', asAdmin({ url: 'https://hooks.example.com/b', description: '' }));
    expect(hook.status).toBe(201);
  });
});

describe("the gateway's own refusals carry codes", () => {
  it('no credentials: unauthorized', async () => {
    const res = await stack.call('GET', '/api/v1/candidates');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: GATEWAY_ERRORS.unauthorized.error, code: 'unauthorized' });
  });

  it('a token without the scope: missing_scope', async () => {
    const narrow = await tenant.token(['pipeline:read']);
    const res = await stack.call('GET', '/api/v1/candidates', { token: narrow });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: GATEWAY_ERRORS.accessDenied.error, code: 'missing_scope' });
  });

  it('an unknown route: not_found', async () => {
    const res = await stack.call('GET', '/api/v1/nothing-here', { token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('an oversized body: payload_too_large', async () => {
    const res = await stack.call('POST', '/api/v1/candidates', {
      token,
      rawBody: `{"name":"${'x'.repeat(10 * 1024 * 1024)}"}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: GATEWAY_ERRORS.requestTooLarge.error, code: 'payload_too_large' });
  });

  it('a request target that is not a path: invalid_request', async () => {
    const raw = await rawRequest(`GET http://elsewhere.example/api/v1/pipeline HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'invalid_request' });
  });

  it('headers too large: headers_too_large', async () => {
    const raw = await rawRequest(`GET /api/v1/pipeline HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1\.1 431/);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'request line or headers too large',
      code: 'headers_too_large',
    });
  });
});

function rawRequest(text: string): Promise<string> {
  const { port, hostname } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let out = '';
    socket.on('data', (d) => (out += d.toString('utf8')));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('sweep: every 4xx across the route table has a code from ERROR_CODES', () => {
  const credentials = (r: Route): Record<string, string> =>
    r.auth === 'token' ? { Authorization: `Bearer ${token}` } : r.auth === 'session' ? { Cookie: adminCookie } : {};
  const pathWith = (r: Route, id: string) => r.path.replace(/\{\w+\}/g, id);

  for (const r of ROUTES) {
    if (r.method === 'DELETE' && r.path === '/api/session') continue; // would end the shared session
    it(label(r), async () => {
      const seen: Array<[string, number, unknown]> = [];
      const send = async (what: string, path: string, init: { headers?: Record<string, string>; body?: unknown; rawBody?: string }) => {
        const res = await stack.call(r.method, path, init);
        seen.push([what, res.status, res.body]);
      };
      if (r.auth !== 'none') await send('no credentials', pathWith(r, randomUUID()), {});
      if (r.auth === 'token') {
        const other = await tenant.token([r.scope === 'pipeline:read' ? 'candidates:read' : 'pipeline:read']);
        await send('missing scope', pathWith(r, randomUUID()), { headers: { Authorization: `Bearer ${other}` } });
      }
      if (r.params) await send('bad path parameter', pathWith(r, 'not-a-uuid'), { headers: credentials(r) });
      if (r.params) await send('unknown id', pathWith(r, randomUUID()), { headers: credentials(r), ...(r.body && { body: {} }) });
      if (r.query) await send('unknown query field', `${pathWith(r, randomUUID())}?zz_unknown=1`, { headers: credentials(r) });
      if (r.body) {
        const path = pathWith(r, randomUUID());
        await send('array body', path, { headers: credentials(r), body: [] });
        await send('unknown body field', path, { headers: credentials(r), body: { zz_unknown: 1 } });
        await send('text body', path, { headers: { ...credentials(r), 'Content-Type': 'text/plain' }, rawBody: 'x' });
      }
      const refusals = seen.filter(([, status]) => status >= 400 && status < 500);
      if (r.auth !== 'none' || r.body) expect(refusals.length, label(r)).toBeGreaterThan(0);
      // A careers page refuses with a page (HTML), no JSON code to check: the not-found page, or
      // one its line lists (a form's 400, 415 or 429).
      if (r.html) {
        const pages = ['404', ...Object.keys(r.errors ?? {})];
        for (const [what, status, body] of refusals) {
          expect(pages, `${label(r)} ${what} ${status}`).toContain(String(status));
          expect(body, `${label(r)} ${what}`).toBeUndefined();
        }
        return;
      }
      for (const [what, status, body] of refusals) {
        expect(ERROR_CODES, `${label(r)} ${what} ${status} ${JSON.stringify(body)}`).toContain((body as { code?: string }).code);
        const { field } = body as { field?: unknown };
        if (field !== undefined) expect(field, `${label(r)} ${what}`).toEqual(expect.any(String));
      }
    });
  }
});
