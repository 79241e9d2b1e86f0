/**
 * Webhook management endpoints (session routes under /api/webhooks) through the local gateway,
 * with the test operation delivering to a REAL local HTTPS receiver (self-signed cert from global
 * setup, trusted through NODE_EXTRA_CA_CERTS) that verifies both signatures.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EVENT_TYPES } from '../../lib/model';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

// ---- output capture (secret leak check) ---------------------------------------------------

const captured: string[] = [];
const originalWrites = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
function capture(stream: NodeJS.WriteStream, original: typeof process.stdout.write) {
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
}

// ---- receiver -----------------------------------------------------------------------------

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  serviceOk: boolean;
  standardOk: boolean;
}

const tls = inject('tls');
/** Secrets by receiver path: each endpoint under test gets its own path. */
const secrets = new Map<string, string>();
const received: Received[] = [];
let receiver: https.Server;
let port = 0;
let counter = 0;

function verifyBoth(path: string, headers: IncomingHttpHeaders, body: Buffer) {
  const secret = secrets.get(path);
  if (!secret) return { serviceOk: false, standardOk: false };
  const expected = createHmac('sha256', secret).update(body).digest('hex');
  const given = String(headers['x-service-signature'] ?? '');
  const serviceOk = given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
  let standardOk = false;
  try {
    new Webhook(secret).verify(body.toString('utf8'), {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    standardOk = true;
  } catch {
    standardOk = false;
  }
  return { serviceOk, standardOk };
}

async function startReceiver() {
  receiver = https.createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url!;
      received.push({ path, headers: req.headers, body: body.toString('utf8'), ...verifyBoth(path, req.headers, body) });
      if (path.startsWith('/fail')) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver broke');
      if (path.startsWith('/count')) return void res.end(`n=${++counter}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok from receiver');
    });
  });
  receiver.on('tlsClientError', () => {});
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  port = (receiver.address() as AddressInfo).port;
}

const hookUrl = (path: string) => `https://127.0.0.1:${port}${path}`;

// ---- stack --------------------------------------------------------------------------------

let stack: Stack;
let a: TestTenant;
let b: TestTenant;
let cookieA: string;
let cookieB: string;
const allSecrets: string[] = [];

beforeAll(async () => {
  capture(process.stdout, originalWrites.out);
  capture(process.stderr, originalWrites.err);
  // Everything the handlers log, so the leak check below sees it all.
  process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
  await startReceiver();
  stack = await startStack({ webhooks: { allowLoopback: true, retrySchedule: '0', timeoutMs: 2_000 } });
  a = await stack.tenant();
  b = await stack.tenant();
  cookieA = await stack.login((await a.user('admin')).email, PASSWORD);
  cookieB = await stack.login((await b.user('admin')).email, PASSWORD);
});

afterAll(async () => {
  await stack?.close();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  process.stdout.write = originalWrites.out;
  process.stderr.write = originalWrites.err;
});

type CallOpts = { body?: unknown; headers?: Record<string, string> };
const as = (cookie: string) => (method: string, path: string, opts: CallOpts = {}) =>
  stack.call(method, path, { ...opts, headers: { Cookie: cookie, ...opts.headers } });
const A = (method: string, path: string, opts?: CallOpts) => as(cookieA)(method, path, opts);
const B = (method: string, path: string, opts?: CallOpts) => as(cookieB)(method, path, opts);

async function create(body: Record<string, unknown>, call = A) {
  const res = await call('POST', '/api/webhooks', { body });
  expect(res.status, res.text).toBe(201);
  allSecrets.push(res.body.webhook.secret);
  const url = new URL(res.body.webhook.url);
  if (url.port === String(port)) secrets.set(url.pathname, res.body.webhook.secret);
  return res.body.webhook as { id: string; url: string; secret: string; events: string[]; active: boolean; created_at: string };
}

const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /api/webhooks', () => {
  it('creates an endpoint: 201, the secret once, all five event types by default', async () => {
    const res = await A('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/in', description: 'CRM sync' } });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const w = res.body.webhook;
    allSecrets.push(w.secret);
    expect(Object.keys(res.body).sort()).toEqual(['success', 'webhook']);
    expect(Object.keys(w).sort()).toEqual(['active', 'created_at', 'events', 'id', 'secret', 'url']);
    expect(w.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(w.url).toBe('https://hooks.example.com/in');
    expect(w.active).toBe(true);
    expect(w.created_at).toMatch(isoMs);
    expect(Math.abs(Date.parse(w.created_at) - Date.now())).toBeLessThan(60_000);
    expect(w.events).toEqual([...EVENT_TYPES]);
    expect(w.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(w.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('keeps a given subscription (deduplicated) and gives every endpoint its own secret', async () => {
    const one = await create({ url: 'https://hooks.example.com/a', events: ['offer.sent', 'offer.sent', 'placement.created'] });
    const two = await create({ url: 'https://hooks.example.com/a' });
    expect(one.events).toEqual(['offer.sent', 'placement.created']);
    expect(one.secret).not.toBe(two.secret);
    expect(one.id).not.toBe(two.id);
  });

  it('validates the body with 400 { error }', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ url: 'http://hooks.example.com/in' }, /https/],
      [{ url: 'ftp://hooks.example.com/in' }, /https/],
      [{ url: 'not a url' }, /url/],
      [{ url: 'https://user:pw@hooks.example.com/in' }, /credentials|url/],
      [{ url: 'https://user@hooks.example.com/in' }, /credentials|url/],
      [{ url: 'https://hooks.example.com/in', events: ['candidate.deleted'] }, /events/],
      [{ url: 'https://hooks.example.com/in', events: ['webhook.test'] }, /events/],
      [{ url: 'https://hooks.example.com/in', events: [] }, /events/],
      [{ url: 'https://hooks.example.com/in', events: 'offer.sent' }, /events/],
      [{ url: 'https://hooks.example.com/in', secret: 'whsec_mine' }, /unknown body field "secret"/],
      [{ url: 'https://hooks.example.com/in', active: false }, /unknown body field "active"/],
      [{ url: 'https://hooks.example.com/in', description: 'x'.repeat(501) }, /description/],
      [{ url: 'https://hooks.example.com/in', description: 42 }, /description/],
      [{ url: `https://hooks.example.com/${'a'.repeat(2048)}` }, /url/],
      [{ events: ['offer.sent'] }, /url is required/],
      [[], /body/],
    ];
    const before = (await A('GET', '/api/webhooks')).body.data.length;
    for (const [body, message] of cases) {
      const res = await A('POST', '/api/webhooks', { body });
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(Object.keys(res.body).filter((k) => !['error', 'code', 'field'].includes(k))).toEqual([]);
      expect(res.body.error, JSON.stringify(body).slice(0, 120)).toMatch(message);
    }
    expect((await A('GET', '/api/webhooks')).body.data.length).toBe(before);
    // The boundary itself is allowed.
    await create({ url: 'https://hooks.example.com/in', description: 'x'.repeat(500) });
  });
});

describe('GET /api/webhooks and /api/webhooks/{id}', () => {
  it('lists the endpoints without any secret', async () => {
    const w = await create({ url: 'https://hooks.example.com/listed', events: ['candidate.created'], description: 'listed one' });
    const res = await A('GET', '/api/webhooks');
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/secret/i);
    for (const s of allSecrets) expect(res.text).not.toContain(s.slice('whsec_'.length));
    const item = res.body.data.find((x: { id: string }) => x.id === w.id);
    expect(item).toEqual({
      id: w.id,
      url: 'https://hooks.example.com/listed',
      events: ['candidate.created'],
      active: true,
      description: 'listed one',
      last_triggered_at: null,
      failure_count: 0,
      created_at: w.created_at,
      disabled_reason: null,
      status: 'active',
    });
  });

  it('answers one endpoint with no secret and no deliveries yet', async () => {
    const w = await create({ url: 'https://hooks.example.com/one' });
    const res = await A('GET', `/api/webhooks/${w.id}`);
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/secret/i);
    expect(res.text).not.toContain(w.secret.slice('whsec_'.length));
    expect(res.body.deliveries).toEqual([]);
    expect(res.body.webhook).toMatchObject({ id: w.id, url: w.url, events: [...EVENT_TYPES], active: true, failure_count: 0 });
    expect(res.body.webhook.secret).toBeUndefined();
  });

  it('answers 404 for an unknown id and 400 for a non-UUID id', async () => {
    const missing = await A('GET', '/api/webhooks/0190aaaa-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(Object.keys(missing.body)).toEqual(['error', 'code']);
    for (const id of ['abc', '1', '0190aaaa-0000-7000-8000-00000000000Z']) {
      const res = await A('GET', `/api/webhooks/${id}`);
      expect(res.status, id).toBe(400);
      expect(res.body.error).toMatch(/id must be a UUID/);
    }
  });
});

describe('PATCH and DELETE /api/webhooks/{id}', () => {
  it('changes url (https only), replaces events, toggles active; empty body is 400', async () => {
    const w = await create({ url: 'https://hooks.example.com/p' });
    const patch = (body: unknown) => A('PATCH', `/api/webhooks/${w.id}`, { body });

    const urlRes = await patch({ url: 'https://hooks.example.com/p2' });
    expect(urlRes.status).toBe(200);
    expect(urlRes.body).toEqual({ success: true, webhook: { id: w.id, active: true } });
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook.url).toBe('https://hooks.example.com/p2');

    for (const bad of [
      { url: 'http://hooks.example.com/p3' },
      { url: 'https://u:p@hooks.example.com/p3' },
      { events: [] },
      { events: ['nope'] },
      { active: 'false' },
      { secret: 'whsec_x' },
      { description: 'x'.repeat(501) },
      {},
    ]) {
      const res = await patch(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(Object.keys(res.body).filter((k) => !['error', 'code', 'field'].includes(k))).toEqual([]);
    }
    const after = (await A('GET', `/api/webhooks/${w.id}`)).body.webhook;
    expect(after.url).toBe('https://hooks.example.com/p2');
    expect(after.events).toEqual([...EVENT_TYPES]);

    expect((await patch({ events: ['offer.accepted'] })).status).toBe(200);
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook.events).toEqual(['offer.accepted']);
    expect((await patch({ events: ['candidate.created', 'offer.sent'] })).status).toBe(200);
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook.events).toEqual(['candidate.created', 'offer.sent']);

    const off = await patch({ active: false });
    expect(off.body).toEqual({ success: true, webhook: { id: w.id, active: false } });
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook.active).toBe(false);
    const on = await patch({ active: true, description: 'back on' });
    expect(on.body).toEqual({ success: true, webhook: { id: w.id, active: true } });
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook).toMatchObject({ active: true, description: 'back on' });
  });

  it('reactivating resets failure_count after real failed deliveries', async () => {
    // A tenant of its own, so its candidate events reach no other endpoint of this file.
    const c = await stack.tenant();
    const cookieC = await stack.login((await c.user('admin')).email, PASSWORD);
    const C = as(cookieC);
    const w = await create({ url: hookUrl('/fail-reset'), events: ['candidate.created'] }, C);
    const token = await c.token(['*']);
    expect((await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Failing Delivery' } })).status).toBe(201);
    const get = async () => (await C('GET', `/api/webhooks/${w.id}`)).body;
    const deadline = Date.now() + 15_000;
    let detail = await get();
    while (detail.webhook.failure_count < 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      detail = await get();
    }
    expect(detail.webhook.failure_count).toBeGreaterThanOrEqual(1);
    expect(detail.deliveries[0]).toMatchObject({ event_type: 'candidate.created', response_status: 500, success: false });

    // Deactivate; let an attempt already in flight finish (later ones are dropped while inactive).
    expect((await C('PATCH', `/api/webhooks/${w.id}`, { body: { active: false } })).status).toBe(200);
    let settled = await get();
    for (let stable = 0; stable < 3 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 300));
      const next = await get();
      stable = next.deliveries.length === settled.deliveries.length ? stable + 1 : 0;
      settled = next;
    }
    expect(settled.webhook).toMatchObject({ active: false });
    expect(settled.webhook.failure_count).toBeGreaterThanOrEqual(1);
    expect(settled.webhook.failure_count).toBe(settled.deliveries.length);
    expect((await C('PATCH', `/api/webhooks/${w.id}`, { body: { active: true } })).status).toBe(200);
    const back = (await C('GET', `/api/webhooks/${w.id}`)).body.webhook;
    expect(back).toMatchObject({ active: true, failure_count: 0, disabled_reason: null });
  });

  it('DELETE soft-deletes: inactive, still listed, still readable', async () => {
    const w = await create({ url: 'https://hooks.example.com/d' });
    const res = await A('DELETE', `/api/webhooks/${w.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const listed = (await A('GET', '/api/webhooks')).body.data.find((x: { id: string }) => x.id === w.id);
    expect(listed).toMatchObject({ id: w.id, active: false, url: 'https://hooks.example.com/d', status: 'deleted', disabled_reason: 'deleted' });
    const one = await A('GET', `/api/webhooks/${w.id}`);
    expect(one.status).toBe(200);
    expect(one.body.webhook).toMatchObject({ id: w.id, active: false });
    // Deleting again is harmless.
    expect((await A('DELETE', `/api/webhooks/${w.id}`)).status).toBe(200);
  });
});

describe('POST /api/webhooks/{id}/test', () => {
  it('sends a signed webhook.test, answers the result and records the delivery first', async () => {
    const w = await create({ url: hookUrl('/ok-test') });
    const n = received.length;
    const res = await A('POST', `/api/webhooks/${w.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      status: 200,
      durationMs: expect.any(Number),
      responseBody: 'ok from receiver',
      error: null,
      errorMessage: null,
    });
    expect(Number.isInteger(res.body.durationMs)).toBe(true);
    expect(res.body.durationMs).toBeGreaterThanOrEqual(0);

    const got = received.slice(n);
    expect(got).toHaveLength(1);
    const r = got[0]!;
    expect(r.path).toBe('/ok-test');
    expect(r.serviceOk).toBe(true);
    expect(r.standardOk).toBe(true);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-service-event']).toBe('webhook.test');
    expect(r.headers['x-service-signature']).toBe(createHmac('sha256', w.secret).update(r.body).digest('hex'));
    expect(r.headers['webhook-id']).toMatch(/^evt_/);
    const env = JSON.parse(r.body);
    expect(Object.keys(env).sort()).toEqual(['data', 'event', 'tenantSlug', 'timestamp']);
    expect(env).toMatchObject({ event: 'webhook.test', tenantSlug: a.slug });
    expect(env.timestamp).toMatch(isoMs);
    expect(typeof env.data).toBe('object');

    const detail = await A('GET', `/api/webhooks/${w.id}`);
    expect(detail.body.deliveries.length).toBeGreaterThanOrEqual(1);
    expect(detail.body.deliveries[0]).toMatchObject({
      event_type: 'webhook.test',
      event_id: r.headers['webhook-id'],
      response_status: 200,
      success: true,
      attempt: 1,
      dead_lettered: false,
    });
    expect(Number.isInteger(detail.body.deliveries[0].duration_ms)).toBe(true);
    expect(detail.body.deliveries[0].created_at).toMatch(isoMs);
  });

  it('reports a receiver 500 as success false, and does not count it as a failure', async () => {
    const w = await create({ url: hookUrl('/fail-test') });
    const res = await A('POST', `/api/webhooks/${w.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, status: 500, responseBody: 'receiver broke', error: 'http_status' });
    expect(res.body.errorMessage).toBe('the receiver answered HTTP 500');
    const detail = (await A('GET', `/api/webhooks/${w.id}`)).body;
    expect(detail.deliveries[0]).toMatchObject({ event_type: 'webhook.test', success: false, response_status: 500 });
    expect(detail.webhook).toMatchObject({ active: true, failure_count: 0 });
  });

  it('works on an inactive endpoint', async () => {
    const w = await create({ url: hookUrl('/ok-inactive') });
    await A('DELETE', `/api/webhooks/${w.id}`);
    const res = await A('POST', `/api/webhooks/${w.id}/test`);
    expect(res.body).toMatchObject({ success: true, status: 200 });
  });

  it('GET /{id} shows the last 10 deliveries, newest first', async () => {
    const w = await create({ url: hookUrl('/count') });
    const start = counter;
    for (let i = 0; i < 12; i++) {
      const res = await A('POST', `/api/webhooks/${w.id}/test`);
      expect(res.body.responseBody).toBe(`n=${start + i + 1}`);
    }
    const { deliveries } = (await A('GET', `/api/webhooks/${w.id}`)).body;
    expect(deliveries).toHaveLength(10);
    expect(deliveries.map((d: any) => d.response_body)).toEqual(
      Array.from({ length: 10 }, (_, i) => `n=${start + 12 - i}`),
    );
    const times = deliveries.map((d: any) => Date.parse(d.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(new Set(deliveries.map((d: any) => d.id)).size).toBe(10);
  });
});

describe('isolation and access', () => {
  it("every management route answers 404 for another tenant's webhook and changes nothing", async () => {
    const w = await create({ url: hookUrl('/ok-isolated'), events: ['offer.sent'], description: 'tenant A only' });
    const before = (await A('GET', `/api/webhooks/${w.id}`)).body;
    const n = received.length;
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/api/webhooks/${w.id}`],
      ['PATCH', `/api/webhooks/${w.id}`, { active: false }],
      ['PATCH', `/api/webhooks/${w.id}`, { url: 'https://attacker.example.com/steal' }],
      ['PATCH', `/api/webhooks/${w.id}`, { events: ['candidate.created'], description: 'owned' }],
      ['DELETE', `/api/webhooks/${w.id}`],
      ['POST', `/api/webhooks/${w.id}/test`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await B(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(404);
      expect(Object.keys(res.body)).toEqual(['error', 'code']);
      expect(res.text).not.toContain(w.url);
    }
    expect(received.length).toBe(n);
    const after = (await A('GET', `/api/webhooks/${w.id}`)).body;
    expect(after).toEqual(before);
    const listB = (await B('GET', '/api/webhooks')).body.data;
    expect(listB.some((x: { id: string }) => x.id === w.id)).toBe(false);
    // Control: B's own endpoint works with B's session.
    const own = await create({ url: 'https://hooks.example.com/b' }, B);
    expect((await B('GET', `/api/webhooks/${own.id}`)).status).toBe(200);
    expect((await A('GET', `/api/webhooks/${own.id}`)).status).toBe(404);
  });

  it('a non-UUID id is 400 on every {id} route', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/webhooks/not-a-uuid'],
      ['PATCH', '/api/webhooks/not-a-uuid', { active: false }],
      ['DELETE', '/api/webhooks/not-a-uuid'],
      ['POST', '/api/webhooks/not-a-uuid/test'],
    ] as Array<[string, string, unknown?]>) {
      const res = await A(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error).toMatch(/id must be a UUID/);
    }
  });

  it('no session (or a forged one) is 401 on every route', async () => {
    const w = await create({ url: 'https://hooks.example.com/auth' });
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/webhooks'],
      ['POST', '/api/webhooks', { url: 'https://hooks.example.com/x' }],
      ['GET', `/api/webhooks/${w.id}`],
      ['PATCH', `/api/webhooks/${w.id}`, { active: false }],
      ['DELETE', `/api/webhooks/${w.id}`],
      ['POST', `/api/webhooks/${w.id}/test`],
    ];
    const listBefore = (await A('GET', '/api/webhooks')).body.data.length;
    for (const [method, path, body] of routes) {
      for (const headers of [{}, { Cookie: '__Host-tp_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }] as Record<string, string>[]) {
        const res = await stack.call(method, path, { headers, ...(body === undefined ? {} : { body }) });
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(typeof res.body.error).toBe('string');
      }
      // A Bearer token is not a session.
      const token = await a.token(['*']);
      const bearer = await stack.call(method, path, { token, ...(body === undefined ? {} : { body }) });
      expect(bearer.status, `${method} ${path} bearer`).toBe(401);
    }
    expect((await A('GET', '/api/webhooks')).body.data.length).toBe(listBefore);
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook.active).toBe(true);
  });

  it('refuses cross-site writes (CSRF) with 403 and changes nothing', async () => {
    const w = await create({ url: hookUrl('/ok-csrf') });
    const n = received.length;
    const listBefore = (await A('GET', '/api/webhooks')).body.data.length;
    for (const headers of [{ Origin: 'https://evil.example' }, { Origin: 'null' }, { 'Sec-Fetch-Site': 'cross-site' }] as Record<string, string>[]) {
      for (const [method, path, body] of [
        ['POST', '/api/webhooks', { url: 'https://evil.example/hook' }],
        ['PATCH', `/api/webhooks/${w.id}`, { url: 'https://evil.example/hook' }],
        ['DELETE', `/api/webhooks/${w.id}`],
        ['POST', `/api/webhooks/${w.id}/test`],
      ] as Array<[string, string, unknown?]>) {
        const res = await A(method, path, { headers, ...(body === undefined ? {} : { body }) });
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.body).toEqual({ error: 'cross-site request refused', code: 'forbidden' });
      }
    }
    expect(received.length).toBe(n);
    expect((await A('GET', '/api/webhooks')).body.data.length).toBe(listBefore);
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook).toMatchObject({ url: w.url, active: true });
    // Same-origin browsers may write.
    const host = new URL(stack.url).host;
    const same = await A('PATCH', `/api/webhooks/${w.id}`, {
      body: { description: 'same origin' },
      headers: { Origin: `http://${host}`, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(same.status).toBe(200);
  });
});

describe('secrets', () => {
  it('never appear in any GET response, in captured stdout/stderr or in the gateway logs', async () => {
    expect(allSecrets.length).toBeGreaterThan(10);
    const texts: string[] = [];
    for (const cookie of [cookieA, cookieB]) {
      const list = await as(cookie)('GET', '/api/webhooks');
      texts.push(list.text);
      for (const w of list.body.data) texts.push((await as(cookie)('GET', `/api/webhooks/${w.id}`)).text);
    }
    expect(texts.length).toBeGreaterThan(10);
    const logs = [...captured, ...stack.logs].join('\n');
    expect(stack.logs.length).toBeGreaterThan(0);
    for (const s of allSecrets) {
      const raw = s.slice('whsec_'.length);
      for (const t of texts) expect(t).not.toContain(raw);
      expect(logs).not.toContain(raw);
      // Nor any derived form: the key bytes as hex.
      expect(logs).not.toContain(Buffer.from(raw, 'base64').toString('hex'));
    }
    for (const t of texts) expect(t).not.toMatch(/whsec_/);
    expect(logs).not.toMatch(/whsec_/);
  });

  it('every delivery the receiver got verified with its endpoint secret', () => {
    expect(received.length).toBeGreaterThan(0);
    const bad = received.filter((r) => !r.serviceOk || !r.standardOk).map((r) => r.path);
    expect(bad).toEqual([]);
  });
});

describe('limits', () => {
  it('caps a workspace at 20 active endpoints, counting reactivation too', async () => {
    const c = await stack.tenant();
    const C = as(await stack.login((await c.user('admin')).email, PASSWORD));
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await create({ url: `https://hooks.example.com/c${i}` }, C)).id);
    const over = await C('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/c20' } });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ error: 'a workspace can have at most 20 active webhook endpoints', code: 'conflict' });
    expect((await C('DELETE', `/api/webhooks/${ids[0]}`)).status).toBe(200);
    const extra = await create({ url: 'https://hooks.example.com/c21' }, C);
    const back = await C('PATCH', `/api/webhooks/${ids[0]}`, { body: { active: true } });
    expect(back.status).toBe(409);
    expect((await C('PATCH', `/api/webhooks/${extra.id}`, { body: { active: true } })).status).toBe(200); // already active: no change in count
  });

  it('accepts an @ in the query string; only credentials before the host are refused', async () => {
    const ok = await A('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/tp?notify=ops@example.com' } });
    expect(ok.status, ok.text).toBe(201);
    allSecrets.push(ok.body.webhook.secret);
    const creds = await A('POST', '/api/webhooks', { body: { url: 'https://user:pw@hooks.example.com/tp' } });
    expect(creds.status).toBe(400);
    expect(creds.body.error).toMatch(/credentials/);
  });
});
