/**
 * Hostile input through the local gateway (test/integration/malformed/fixture.ts). This file:
 * specific answers to hostile bodies, queries and path values: prototype-ish keys, non-object and
 * deeply nested bodies, huge and unicode names, empty, repeated and NUL query values, malformed
 * token ids, hostile login bodies.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DECOY_DOMAIN, HUGE, nested, nestedArray } from './cases';
import { cookie, isErrorBody, label, ROUTES, send, sessionUser, stack, token, useMalformedFixture } from './fixture';

useMalformedFixture();

describe('specific expectations', () => {
  const create = (rawBody: string) =>
    stack.call('POST', '/api/v1/candidates', { token, rawBody, headers: { 'Content-Type': 'application/json' } });

  it.each([
    ['{"__proto__":{"x":1}}', /unknown body field "__proto__"|name is required/],
    ['{"name":"x","__proto__":{"stage":"placed"}}', /unknown body field "__proto__"/],
    ['{"name":"x","constructor":{"prototype":{"x":1}}}', /unknown body field "constructor"/],
    ['{"name":"x","toString":"y"}', /unknown body field "toString"/],
  ])('prototype-ish keys are refused as unknown fields: %s', async (raw, message) => {
    const res = await create(raw);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it.each(['null', '0', 'true', '"name"', '[]', '[{"name":"x"}]'])(
    'a non-object JSON body %s -> 400 "body must be a JSON object"',
    async (raw) => {
      const res = await create(raw);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'body must be a JSON object', code: 'invalid_request' });
    },
  );

  it('a deeply nested body is refused with 400, not a crash', async () => {
    for (const raw of [nestedArray(100_000), nested(10_000), `{"name":${nested(5_000)}}`]) {
      const res = await create(raw);
      expect(res.status).toBe(400);
      expect(isErrorBody(res.body)).toBe(true);
    }
  });

  it('a 100k-character name is refused by length', async () => {
    const res = await create(JSON.stringify({ name: HUGE }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'name must be at most 200 characters', code: 'invalid_field', field: 'name' });
  });

  it('unicode names round-trip unchanged', async () => {
    const name = 'Zoë 李小龍 😀 Ωmega';
    const res = await create(JSON.stringify({ name }));
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe(name);
  });

  it('an empty limit is refused; repeated parameters are refused', async () => {
    const empty = await stack.call('GET', '/api/v1/candidates?limit=', { token });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/limit must be an integer between 1 and 200/);
    const repeated = await stack.call('GET', '/api/v1/requisitions?status=open&status=open', { token });
    expect(repeated.status).toBe(400);
    expect(repeated.body).toEqual({ error: 'status must be given at most once', code: 'invalid_field', field: 'status' });
  });

  it('a NUL in a query value is refused, not passed on', async () => {
    const res = await stack.call('GET', '/api/v1/candidates?stage=applied%00', { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/stage must be one of/);
  });

  it('GET /pipeline takes no query parameters at all', async () => {
    const res = await stack.call('GET', '/api/v1/pipeline?limit=5', { token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'unknown query field "limit"', code: 'invalid_field', field: 'limit' });
  });

  it('routes without a query schema ignore the query string: the OpenAPI document and the session', async () => {
    const plain = await stack.call('GET', '/api/v1/openapi.json');
    const queried = await stack.call('GET', '/api/v1/openapi.json?limit=5&stage=%00&__proto__=x');
    expect([plain.status, queried.status]).toEqual([200, 200]);
    expect(queried.body).toEqual(plain.body);
    const session = await stack.call('GET', '/api/session?user=other&tenant_id=x', { headers: { Cookie: cookie } });
    expect([session.status, session.body?.data?.user?.email]).toEqual([200, sessionUser.email]);
  });

  it.each([
    ['not-a-uuid', 'id must be a UUID'],
    ['%00', 'id must be a UUID'],
    ['a%2Fb', 'id must be a UUID'],
    ['__proto__', 'id must be a UUID'],
    [`${randomUUID()}%20`, 'id must be a UUID'],
  ])('DELETE /api/tokens/%s -> 400 %s', async (id, error) => {
    const res = await stack.call('DELETE', `/api/tokens/${id}`, { headers: { Cookie: cookie } });
    expect([res.status, res.body]).toEqual([400, { error, code: 'invalid_field', field: 'id' }]);
  });

  it('DELETE /api/tokens/{id} with a well-formed id of no token -> 404 from the handler', async () => {
    for (const id of [randomUUID(), randomUUID().toUpperCase(), '00000000-0000-0000-0000-000000000000']) {
      const res = await stack.call('DELETE', `/api/tokens/${id}`, { headers: { Cookie: cookie } });
      expect([res.status, res.body], id).toEqual([404, { error: 'token not found', code: 'not_found' }]);
    }
  });

  it.each(['null', '0', 'true', '"x"', '[]'])('a non-object JSON login body %s -> 400 "body must be a JSON object"', async (raw) => {
    const res = await stack.call('POST', '/api/session', { rawBody: raw, headers: { 'Content-Type': 'application/json' } });
    expect([res.status, res.body]).toEqual([400, { error: 'body must be a JSON object', code: 'invalid_request' }]);
  });

  it('a login body with an unknown field is refused before any password check', async () => {
    const res = await stack.call('POST', '/api/session', { body: { email: `x@${DECOY_DOMAIN}`, password: 'x', role: 'admin' } });
    expect([res.status, res.body]).toEqual([400, { error: 'unknown body field "role"', code: 'invalid_field', field: 'role' }]);
  });
});

describe('integer query parameters take digits only', () => {
  /** Every [route, parameter] whose value is read as an integer: found through the route's own schema. */
  const integerParams = ROUTES.flatMap((r) => {
    const query = r.query as
      | { shape?: Record<string, unknown>; safeParse(v: unknown): { success: boolean; data?: Record<string, unknown> } }
      | undefined;
    return Object.keys(query?.shape ?? {})
      .filter((k) => query!.safeParse({ [k]: '7' }).data?.[k] === 7)
      .map((k) => [r, k] as const);
  });

  it('finds them on every list route', () => {
    const found = integerParams.map(([r, k]) => `${label(r)} ${k}`);
    for (const expected of [
      'GET /api/v1/candidates limit',
      'GET /api/v1/candidates offset',
      'GET /api/v1/requisitions limit',
      'GET /api/webhooks/{id}/deliveries limit',
      'GET /api/audit limit',
      'GET /api/v1/candidates/imports/{id}/errors limit',
      'GET /api/settings/pipeline preview_rejected_days',
      'GET /api/candidates limit',
    ])
      expect(found).toContain(expected);
  });

  it('refuse 1e2, hex, signs, decimals, spaces, non-ASCII digits and an empty value with 400 naming the parameter', async () => {
    const bad = [
      '1e2',
      '1E1',
      '0x10',
      '0b11',
      '0o7',
      '%2B5',
      '-0',
      '5.0',
      '5.',
      '.5',
      '%205',
      '5%20',
      '',
      'Infinity',
      '1_0',
      '%D9%A5',
      '%EF%BC%95',
    ];
    for (const [r, k] of integerParams) {
      for (const value of bad) {
        const res = await send(r, { name: `${k}=${value}`, query: `${k}=${value}` });
        expect([res.status, res.body.code, res.body.field], `${label(r)}?${k}=${value}: ${res.text}`).toEqual([400, 'invalid_field', k]);
      }
      const ok = await send(r, { name: `${k}=7`, query: `${k}=07` });
      expect(ok.status, `${label(r)}?${k}=07: ${ok.text}`).not.toBe(400);
    }
  });
});

describe('text people read: no control characters, lone surrogates or bidirectional overrides', () => {
  const session = () => ({ headers: { Cookie: cookie } });
  const json = (raw: string) => ({ rawBody: raw, headers: { 'Content-Type': 'application/json' } });

  it.each([
    ['name', '/api/v1/candidates', (v: string) => `{"name":${v}}`],
    ['title', '/api/v1/requisitions', (v: string) => `{"title":${v}}`],
  ])('%s refuses the bidirectional embeddings, overrides and isolates', async (field, path, body) => {
    for (const c of [
      '\\u202Aa',
      '\\u202Ba',
      'a\\u202C',
      'x\\u202Dy',
      'Ann \\u202Egnp.exe',
      '\\u2066a',
      '\\u2067a',
      '\\u2068a',
      'a\\u2069',
    ]) {
      const res = await stack.call('POST', path, { token, ...json(body(`"${c}"`)) });
      expect([res.status, res.body], c).toEqual([
        400,
        { error: `${field} must not contain bidirectional control characters`, code: 'invalid_field', field },
      ]);
    }
    // Right-to-left text needs none of them, and keeps its marks.
    const rtl = await stack.call('POST', path, { token, body: JSON.parse(body('"דנה לוי ‏"')) });
    expect(rtl.status, rtl.text).toBe(201);
  });

  it('a token name refuses them too', async () => {
    const res = await stack.call('POST', '/api/tokens', { ...session(), body: { name: 'ci \u202Eenilepip', scopes: ['pipeline:read'] } });
    expect([res.status, res.body.field]).toEqual([400, 'name']);
  });

  it('a webhook description refuses NUL, CR, LF, lone surrogates and bidirectional overrides, on create and on edit', async () => {
    const created = await stack.call('POST', '/api/webhooks', { ...session(), body: { url: 'https://hooks.example.com/described' } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.webhook.id;
    for (const [raw, error] of [
      ['"a\\u0000b"', 'description must not contain control characters'],
      ['"line\\r\\nbreak"', 'description must not contain control characters'],
      ['"line\\nbreak"', 'description must not contain control characters'],
      ['"\\ud800"', 'description must not contain control characters'],
      ['"ok \\udfff"', 'description must not contain control characters'],
      ['"\\u202Eevil"', 'description must not contain bidirectional control characters'],
    ]) {
      for (const [method, path, body] of [
        ['POST', '/api/webhooks', `{"url":"https://hooks.example.com/x","description":${raw}}`],
        ['PATCH', `/api/webhooks/${id}`, `{"description":${raw}}`],
      ]) {
        const res = await stack.call(method!, path!, { headers: { Cookie: cookie, 'Content-Type': 'application/json' }, rawBody: body });
        expect([res.status, res.body], `${method} ${raw}`).toEqual([400, { error, code: 'invalid_field', field: 'description' }]);
      }
    }
    const fine = await stack.call('PATCH', `/api/webhooks/${id}`, { ...session(), body: { description: 'Zoë’s CRM sync 😀 — דנה' } });
    expect(fine.status, fine.text).toBe(200);
    const cleared = await stack.call('PATCH', `/api/webhooks/${id}`, { ...session(), body: { description: '' } });
    expect(cleared.status, cleared.text).toBe(200);
  });
});
