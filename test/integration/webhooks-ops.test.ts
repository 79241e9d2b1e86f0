/**
 * Webhook operations (issue 8) through the local gateway and the local webhook pipeline (stream
 * poller -> fan-out -> local SQS -> delivery), against a real HTTPS receiver on 127.0.0.1 that can
 * be taken down and brought back: the delivery log, resend, replay since T, secret rotation with
 * both verifier libraries, deleted vs disabled, the test operation's error category and the
 * endpoint_disabled signals.
 */
import { once } from 'node:events';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- output capture (WARN line, EMF metric, leak check) -----------------------------------

const captured: string[] = [];
const originalWrites = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
function capture(stream: NodeJS.WriteStream, original: typeof process.stdout.write) {
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
}

// ---- receiver that can go down and come back on the same port ------------------------------

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const tls = inject('tls');
const received: Received[] = [];
let receiver: https.Server | undefined;
let port = 0;
/** Per request path prefix: how to answer. */
let slowMs = 0;

async function receiverUp() {
  receiver = https.createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = req.url!;
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (path.startsWith('/gone')) return void res.writeHead(410).end('gone');
      if (path.startsWith('/fail')) return void res.writeHead(500).end('receiver broke');
      if (path.startsWith('/redirect')) return void res.writeHead(302, { location: 'https://example.com/' }).end();
      if (slowMs) await sleep(slowMs);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  receiver.on('tlsClientError', () => {});
  receiver.listen(port, '127.0.0.1');
  await once(receiver, 'listening');
  port = (receiver.address() as AddressInfo).port;
}
async function receiverDown() {
  const r = receiver!;
  receiver = undefined;
  r.closeAllConnections();
  await new Promise((done) => r.close(done));
}
const hookUrl = (path: string) => `https://127.0.0.1:${port}${path}`;
const at = (path: string) => received.filter((r) => r.path === path);

// ---- stack ----------------------------------------------------------------------------------

let stack: Stack;
let a: TestTenant;
let b: TestTenant;
let cookieA: string;
let cookieB: string;
let cookieMember: string;
let tokenA: string;

beforeAll(async () => {
  capture(process.stdout, originalWrites.out);
  capture(process.stderr, originalWrites.err);
  await receiverUp();
  // Two attempts (now, then 0 s later), then the dead-letter queue.
  stack = await startStack({ webhooks: { allowLoopback: true, retrySchedule: '0', timeoutMs: 2_000 } });
  a = await stack.tenant();
  b = await stack.tenant();
  cookieA = await stack.login((await a.user('admin')).email, PASSWORD);
  cookieMember = await stack.login((await a.user('member')).email, PASSWORD);
  cookieB = await stack.login((await b.user('admin')).email, PASSWORD);
  tokenA = await a.token(['*']);
});

afterAll(async () => {
  await stack?.close();
  if (receiver) await receiverDown();
  process.stdout.write = originalWrites.out;
  process.stderr.write = originalWrites.err;
});

type CallOpts = { body?: unknown; headers?: Record<string, string> };
const as = (cookie: string) => (method: string, path: string, opts: CallOpts = {}) =>
  stack.call(method, path, { ...opts, headers: { Cookie: cookie, ...opts.headers } });
const A = (method: string, path: string, opts?: CallOpts) => as(cookieA)(method, path, opts);
const B = (method: string, path: string, opts?: CallOpts) => as(cookieB)(method, path, opts);
const M = (method: string, path: string, opts?: CallOpts) => as(cookieMember)(method, path, opts);

async function create(body: Record<string, unknown>, call = A): Promise<{ id: string; secret: string }> {
  const res = await call('POST', '/api/webhooks', { body });
  expect(res.status, res.text).toBe(201);
  return res.body.webhook;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function createCandidate(name: string) {
  const res = await stack.call('POST', '/api/v1/candidates', { token: tokenA, body: { name } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}

const verifiers = (secret: string) => [new StandardWebhook(secret), new SvixWebhook(secret)];
function verifiesWith(secret: string, r: Received): boolean[] {
  const h = {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  };
  return verifiers(secret).map((v) => {
    try {
      v.verify(r.body, h);
      return true;
    } catch {
      return false;
    }
  });
}

// ---- delivery log ----------------------------------------------------------------------------

describe('GET /api/webhooks/{id}/deliveries', () => {
  it('pages newest first with an opaque cursor, filters by status and event type, carries the category', async () => {
    const ok = await create({ url: hookUrl('/log-ok') });
    // Seven test sends: alternately accepted and refused (via a url switch).
    const expectSuccess: boolean[] = [];
    for (let i = 0; i < 7; i++) {
      const fail = i % 2 === 1;
      await A('PATCH', `/api/webhooks/${ok.id}`, { body: { url: hookUrl(fail ? '/fail-log' : '/log-ok') } });
      const res = await A('POST', `/api/webhooks/${ok.id}/test`);
      expect(res.body.success).toBe(!fail);
      expectSuccess.unshift(!fail); // newest first
    }
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await A('GET', `/api/webhooks/${ok.id}/deliveries?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data);
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen.map((d) => d.id)).size).toBe(7);
    expect(seen.map((d) => d.success)).toEqual(expectSuccess);
    const times = seen.map((d) => Date.parse(d.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    for (const d of seen) {
      expect(Object.keys(d).sort()).toEqual(
        ['attempt', 'created_at', 'dead_lettered', 'duration_ms', 'error', 'error_category', 'event_id', 'event_type', 'id', 'next_attempt_at', 'response_body', 'response_status', 'success'].sort(),
      );
      expect(d.error_category).toBe(d.success ? null : 'http_status');
    }

    const failed = (await A('GET', `/api/webhooks/${ok.id}/deliveries?status=failed`)).body;
    expect(failed.data.map((d: any) => d.success)).toEqual([false, false, false]);
    expect(failed.next_cursor).toBeNull();
    const succeeded = (await A('GET', `/api/webhooks/${ok.id}/deliveries?status=succeeded&limit=2`)).body;
    expect(succeeded.data).toHaveLength(2);
    expect(succeeded.data.every((d: any) => d.success)).toBe(true);
    const rest = (await A('GET', `/api/webhooks/${ok.id}/deliveries?status=succeeded&limit=2&cursor=${succeeded.next_cursor}`)).body;
    expect(rest.data).toHaveLength(2);
    expect(rest.data.every((d: any) => d.success)).toBe(true);
    expect(new Set([...succeeded.data, ...rest.data].map((d: any) => d.id)).size).toBe(4);
    expect((await A('GET', `/api/webhooks/${ok.id}/deliveries?event_type=webhook.test`)).body.data).toHaveLength(7);
    expect((await A('GET', `/api/webhooks/${ok.id}/deliveries?event_type=candidate.created`)).body).toEqual({ data: [], next_cursor: null });
    // The detail keeps the spec's last 10, now with the category too.
    expect((await A('GET', `/api/webhooks/${ok.id}`)).body.deliveries[0].id).toBe(seen[0].id);
  });

  it('400 names the field for a bad limit, status, event type or cursor', async () => {
    const w = await create({ url: hookUrl('/log-bad') });
    for (const [query, field] of [
      ['limit=0', /limit/],
      ['limit=101', /limit/],
      ['limit=abc', /limit/],
      ['status=pending', /status/],
      ['event_type=DROP%20TABLE', /event_type/],
      ['cursor=not-a-cursor', /cursor/],
      [`cursor=${Buffer.from('a:123').toString('base64url')}`, /cursor/],
      ['page=2', /page/],
    ] as const) {
      const res = await A('GET', `/api/webhooks/${w.id}/deliveries?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'error', 'field']);
      expect(res.body.error, query).toMatch(field);
    }
  });
});

// ---- status, deleted vs disabled ---------------------------------------------------------------

describe('deleted and disabled', () => {
  it('a deleted endpoint says so, can be filtered, and cannot be reactivated or rotated', async () => {
    const c = await stack.tenant();
    const C = as(await stack.login((await c.user('admin')).email, PASSWORD));
    const live = await create({ url: 'https://hooks.example.com/live' }, C);
    const off = await create({ url: 'https://hooks.example.com/off' }, C);
    const gone = await create({ url: 'https://hooks.example.com/gone' }, C);
    await C('PATCH', `/api/webhooks/${off.id}`, { body: { active: false } });
    await C('DELETE', `/api/webhooks/${gone.id}`);
    const all = (await C('GET', '/api/webhooks')).body.data;
    const statusOf = Object.fromEntries(all.map((e: any) => [e.id, [e.status, e.active, e.disabled_reason]]));
    expect(statusOf).toEqual({
      [live.id]: ['active', true, null],
      [off.id]: ['disabled', false, null],
      [gone.id]: ['deleted', false, 'deleted'],
    });
    for (const s of ['active', 'disabled', 'deleted']) {
      const ids = (await C('GET', `/api/webhooks?status=${s}`)).body.data.map((e: any) => e.id);
      expect(ids, s).toEqual([{ active: live.id, disabled: off.id, deleted: gone.id }[s]]);
    }
    const bad = await C('GET', '/api/webhooks?status=gone');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/status must be one of active, disabled, deleted/);
    expect((await C('GET', `/api/webhooks/${gone.id}`)).body.webhook.status).toBe('deleted');
    const back = await C('PATCH', `/api/webhooks/${gone.id}`, { body: { active: true } });
    expect(back.status).toBe(409);
    expect(back.body.error).toMatch(/deleted/);
    expect((await C('POST', `/api/webhooks/${gone.id}/rotate-secret`, { body: {} })).status).toBe(409);
    expect((await C('POST', `/api/webhooks/${off.id}/replay`, { body: { since: new Date(Date.now() - 3600_000).toISOString() } })).status).toBe(409);
    expect((await C('PATCH', `/api/webhooks/${off.id}`, { body: { active: true } })).body.webhook.active).toBe(true);
  });
});

// ---- test operation -------------------------------------------------------------------------

describe('POST /api/webhooks/{id}/test error categories', () => {
  it('names the category and a secret-free sentence', async () => {
    const cases: Array<[string, string, number]> = [
      ['/fail-cat', 'http_status', 500],
      ['/redirect-cat', 'redirect', 302],
    ];
    for (const [path, category, status] of cases) {
      const w = await create({ url: hookUrl(path) });
      const res = await A('POST', `/api/webhooks/${w.id}/test`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, status, error: category });
      expect(typeof res.body.errorMessage).toBe('string');
      expect(res.body.errorMessage).not.toContain(w.secret.slice(6));
    }
    // Nothing listens on port 9 of 127.0.0.1.
    const refused = await create({ url: 'https://127.0.0.1:9/x' });
    const res = await A('POST', `/api/webhooks/${refused.id}/test`);
    expect(res.body).toMatchObject({ success: false, status: 0, error: 'connection', responseBody: '' });
    expect(res.body.errorMessage).toMatch(/connection refused/);
    const log = (await A('GET', `/api/webhooks/${refused.id}/deliveries`)).body.data;
    expect(log[0]).toMatchObject({ success: false, error_category: 'connection' });
  });

  it('a receiver slower than the attempt timeout is a timeout result, not a 500', async () => {
    const w = await create({ url: hookUrl('/slow-cat') });
    slowMs = 3_000; // the stack's attempt timeout is 2 s
    try {
      const res = await A('POST', `/api/webhooks/${w.id}/test`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, status: 0, error: 'timeout' });
      expect(res.body.errorMessage).toMatch(/timeout after 2000 ms/);
    } finally {
      slowMs = 0;
    }
  });
});

// ---- secret rotation ----------------------------------------------------------------------

describe('POST /api/webhooks/{id}/rotate-secret', () => {
  it('signs with both secrets during the grace window (both libraries), with only the new one after', async () => {
    const w = await create({ url: hookUrl('/rotate') });
    const old = w.secret;
    const res = await A('POST', `/api/webhooks/${w.id}/rotate-secret`, { body: { grace_seconds: 3 } });
    expect(res.status, res.text).toBe(200);
    const { secret, previous_secret_expires_at } = res.body.webhook;
    expect(res.body).toEqual({ success: true, webhook: { id: w.id, secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String) } });
    expect(secret).not.toBe(old);
    expect(Date.parse(previous_secret_expires_at) - Date.now()).toBeGreaterThan(1_000);
    // The secret is shown only here.
    expect((await A('GET', `/api/webhooks/${w.id}`)).text).not.toContain(secret.slice(6));

    // During the window: a test send and a delivery through the pipeline both verify with either secret.
    expect((await A('POST', `/api/webhooks/${w.id}/test`)).body.success).toBe(true);
    const during = at('/rotate').at(-1)!;
    expect(verifiesWith(secret, during)).toEqual([true, true]);
    expect(verifiesWith(old, during)).toEqual([true, true]);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    const { createHmac } = await import('node:crypto');
    expect(during.headers['x-service-signature']).toBe(createHmac('sha256', secret).update(during.body).digest('hex'));
    expect(during.headers['x-service-signature-previous']).toBe(createHmac('sha256', old).update(during.body).digest('hex'));

    await sleep(Math.max(0, Date.parse(previous_secret_expires_at) - Date.now()) + 200);
    expect((await A('POST', `/api/webhooks/${w.id}/test`)).body.success).toBe(true);
    const after = at('/rotate').at(-1)!;
    expect(after).not.toBe(during);
    expect(verifiesWith(secret, after)).toEqual([true, true]);
    expect(verifiesWith(old, after)).toEqual([false, false]);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(after.headers['x-service-signature-previous']).toBeUndefined();

    // grace_seconds 0: the old secret stops at once; default: 24 h.
    const now = (await A('POST', `/api/webhooks/${w.id}/rotate-secret`, { body: { grace_seconds: 0 } })).body.webhook;
    expect(now.previous_secret_expires_at).toBeNull();
    await A('POST', `/api/webhooks/${w.id}/test`);
    expect(verifiesWith(secret, at('/rotate').at(-1)!)).toEqual([false, false]);
    expect(verifiesWith(now.secret, at('/rotate').at(-1)!)).toEqual([true, true]);
    const dflt = (await M('POST', `/api/webhooks/${w.id}/rotate-secret`, { body: {} })).body.webhook;
    expect(Date.parse(dflt.previous_secret_expires_at) - Date.now()).toBeGreaterThan(86_000_000);
  });

  it('validates grace_seconds, refuses another workspace (404) and never leaks the new secret there', async () => {
    const w = await create({ url: hookUrl('/rotate-bad') });
    for (const body of [{ grace_seconds: -1 }, { grace_seconds: 604_801 }, { grace_seconds: 1.5 }, { grace_seconds: '60' }, { grace: 5 }]) {
      const res = await A('POST', `/api/webhooks/${w.id}/rotate-secret`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(/grace/);
    }
    const other = await B('POST', `/api/webhooks/${w.id}/rotate-secret`, { body: {} });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: 'webhook not found', code: 'not_found' });
    // Unchanged: the original secret still verifies.
    await A('POST', `/api/webhooks/${w.id}/test`);
    expect(verifiesWith(w.secret, at('/rotate-bad').at(-1)!)).toEqual([true, true]);
  });
});

// ---- resend, replay ---------------------------------------------------------------------------

describe('receiver down -> replay since T -> resend', () => {
  it('delivers each missed event exactly once with its original webhook-id; resend verifies', async () => {
    const path = '/replay';
    const w = await create({ url: hookUrl(path), events: ['candidate.created'] });
    const since = new Date(Date.now() - 1_000).toISOString();

    // 1-2. The receiver is down: every attempt fails and is dead-lettered.
    await receiverDown();
    const names = ['Ada', 'Grace', 'Edsger', 'Barbara', 'Donald'];
    for (const n of names) await createCandidate(n);
    const log = await until('dead letters', async () => {
      const d = (await A('GET', `/api/webhooks/${w.id}/deliveries?limit=100`)).body.data;
      return d.filter((x: any) => x.dead_lettered).length === names.length && d;
    });
    expect(log).toHaveLength(names.length * 2);
    expect(log.every((d: any) => !d.success && d.error_category === 'connection')).toBe(true);
    const missed = new Set(log.map((d: any) => d.event_id));
    expect(missed.size).toBe(names.length);

    // 3. The receiver is back. 4. Replay since T.
    await receiverUp();
    slowMs = 300; // slow enough that the job is still running when asked again
    let job: any;
    try {
      const started = await A('POST', `/api/webhooks/${w.id}/replay`, { body: { since } });
      expect(started.status, started.text).toBe(202);
      job = started.body.data;
      expect(job).toMatchObject({ since, status: 'running', created_at: expect.any(String), updated_at: expect.any(String) });
      // Idempotent while it runs: the same job, 200, no second traffic.
      const again = await M('POST', `/api/webhooks/${w.id}/replay`, { body: { since } });
      expect(again.status).toBe(200);
      expect(again.body.data.id).toBe(job.id);
      const done = await until('replay done', async () => {
        const j = (await A('GET', `/api/webhooks/${w.id}/replay`)).body.data;
        return j?.status === 'done' && j;
      });
      expect(done).toMatchObject({ id: job.id, queued: names.length, sent: names.length, remaining: 0 });
    } finally {
      slowMs = 0;
    }
    await sleep(500); // anything duplicated would have arrived by now
    const got = at(path);
    expect(got.map((r) => r.headers['webhook-id']).sort()).toEqual([...missed].sort());
    for (const r of got) expect(verifiesWith(w.secret, r)).toEqual([true, true]);
    expect(got.map((r) => JSON.parse(r.body).data.name).sort()).toEqual([...names].sort());

    // Nothing is missed any more: a new replay queues nothing and is done at once.
    const second = await A('POST', `/api/webhooks/${w.id}/replay`, { body: { since } });
    expect(second.status).toBe(202);
    const idle = await until('empty replay done', async () => {
      const j = (await A('GET', `/api/webhooks/${w.id}/replay`)).body.data;
      return j?.status === 'done' && j;
    });
    expect(idle).toMatchObject({ id: second.body.data.id, queued: 0, sent: 0, remaining: 0 });

    // 5. Resend one (dead-lettered) event: same id and body, fresh signature, a new series.
    const eventId = [...missed][0] as string;
    const original = got.find((r) => r.headers['webhook-id'] === eventId)!;
    const n = at(path).length;
    const res = await A('POST', `/api/webhooks/${w.id}/resend`, { body: { event_id: eventId } });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ success: true, event_id: eventId });
    const resent = await until('resend', async () => at(path).length > n && at(path).at(-1));
    expect(resent.headers['webhook-id']).toBe(eventId);
    expect(resent.body).toBe(original.body);
    new StandardWebhook(w.secret).verify(resent.body, {
      'webhook-id': String(resent.headers['webhook-id']),
      'webhook-timestamp': String(resent.headers['webhook-timestamp']),
      'webhook-signature': String(resent.headers['webhook-signature']),
    });
    const entry = await until('resend logged', async () => {
      const d = (await A('GET', `/api/webhooks/${w.id}/deliveries?limit=1`)).body.data[0];
      return d?.event_id === eventId && d.success && d;
    });
    expect(entry).toMatchObject({ attempt: 1, dead_lettered: false, error_category: null });
  }, 60_000);

  it('resend and replay validate their bodies and answer 404 for other workspaces and unknown events', async () => {
    const w = await create({ url: hookUrl('/resend-bad') });
    const own = await A('POST', `/api/webhooks/${w.id}/test`);
    expect(own.body.success).toBe(true);
    const eventId = String(at('/resend-bad').at(-1)!.headers['webhook-id']);

    for (const body of [{}, { event_id: 'evt_1' }, { event_id: 42 }, { event_id: eventId, extra: 1 }]) {
      const res = await A('POST', `/api/webhooks/${w.id}/resend`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(/event_id|extra/);
    }
    const unknown = await A('POST', `/api/webhooks/${w.id}/resend`, { body: { event_id: `evt_${'0'.repeat(32)}` } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'event not found', code: 'not_found', field: 'event_id' });
    for (const body of [{}, { since: 'yesterday' }, { since: new Date(Date.now() - 15 * 86_400_000).toISOString() }, { since: new Date(Date.now() + 60_000).toISOString() }]) {
      const res = await A('POST', `/api/webhooks/${w.id}/replay`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(/since/);
    }
    // Another workspace: neither the endpoint nor the event is visible.
    const n = at('/resend-bad').length;
    const theirs = await create({ url: hookUrl('/resend-b') }, B);
    for (const [method, path, body] of [
      ['POST', `/api/webhooks/${w.id}/resend`, { event_id: eventId }],
      ['POST', `/api/webhooks/${theirs.id}/resend`, { event_id: eventId }],
      ['POST', `/api/webhooks/${w.id}/replay`, { since: new Date(Date.now() - 3_600_000).toISOString() }],
      ['GET', `/api/webhooks/${w.id}/replay`],
      ['GET', `/api/webhooks/${w.id}/deliveries`],
      ['POST', `/api/webhooks/${w.id}/rotate-secret`, {}],
    ] as Array<[string, string, unknown?]>) {
      const res = await B(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    }
    await sleep(300);
    expect(at('/resend-bad')).toHaveLength(n);
    expect(at('/resend-b')).toHaveLength(0);
    // No job yet: null. A member may resend as an admin may.
    expect((await A('GET', `/api/webhooks/${w.id}/replay`)).body).toEqual({ data: null });
    expect((await M('POST', `/api/webhooks/${w.id}/resend`, { body: { event_id: eventId } })).status).toBe(202);
    await until('member resend', async () => at('/resend-bad').length > n);
  });
});

describe('replay bounds', () => {
  it('a workspace runs at most 3 replay jobs at once; asking again for a running one answers it', async () => {
    const c = await stack.tenant();
    const C = as(await stack.login((await c.user('member')).email, PASSWORD));
    const hooks = [];
    for (let i = 0; i < 4; i++) hooks.push(await create({ url: hookUrl(`/bound-${i}`) }, C));
    // Three jobs that stay running (no worker message): as if each had thousands of events to go.
    const { startReplayJob } = await import('../../lib/store/webhooks');
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const jobs = [];
    for (const h of hooks.slice(0, 3)) jobs.push(await startReplayJob(c.id, h.id, since, 15 * 60_000));
    const fourth = await C('POST', `/api/webhooks/${hooks[3]!.id}/replay`, { body: { since } });
    expect(fourth.status).toBe(409);
    expect(fourth.body).toEqual({ error: 'the workspace already runs 3 replay jobs; try again when one is done', code: 'conflict' });
    const again = await C('POST', `/api/webhooks/${hooks[0]!.id}/replay`, { body: { since } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: jobs[0]!.id, status: 'running' });
    // Another workspace is not held back by this one's jobs.
    const own = await create({ url: hookUrl('/bound-b') }, B);
    expect((await B('POST', `/api/webhooks/${own.id}/replay`, { body: { since } })).status).toBe(202);
  });
});

// ---- operator signals -------------------------------------------------------------------------

describe('an endpoint disabled by the service', () => {
  it('sends webhook.endpoint_disabled to the other active endpoints, logs WARN and emits a metric', async () => {
    const c = await stack.tenant();
    const C = as(await stack.login((await c.user('admin')).email, PASSWORD));
    const token = await c.token(['*']);
    const gone = await create({ url: hookUrl('/gone-signal'), events: ['candidate.created'] }, C);
    const watcher = await create({ url: hookUrl('/watcher'), events: ['offer.sent'] }, C);
    const idle = await create({ url: hookUrl('/idle') }, C);
    await C('PATCH', `/api/webhooks/${idle.id}`, { body: { active: false } });
    const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Signal Test' } });
    expect(res.status).toBe(201);
    const got = await until('endpoint_disabled event', async () => at('/watcher').length > 0 && at('/watcher'));
    expect(got).toHaveLength(1);
    const env = JSON.parse(got[0]!.body);
    expect(env).toMatchObject({ event: 'webhook.endpoint_disabled', tenantSlug: c.slug, data: { webhookId: gone.id, reason: 'receiver answered 410 Gone' } });
    expect(got[0]!.headers['x-service-event']).toBe('webhook.endpoint_disabled');
    expect(verifiesWith(watcher.secret, got[0]!)).toEqual([true, true]);
    expect(at('/idle')).toHaveLength(0);
    const detail = (await C('GET', `/api/webhooks/${gone.id}`)).body.webhook;
    expect(detail).toMatchObject({ active: false, status: 'disabled', disabled_reason: 'receiver answered 410 Gone' });
    const lines = captured.join('').split('\n');
    const warn = lines.find((l) => l.includes('"webhook disabled"') && l.includes(gone.id));
    expect(warn).toBeDefined();
    expect(JSON.parse(warn!)).toMatchObject({ level: 'WARN', webhook_id: gone.id, tenant_id: c.id, reason: 'receiver answered 410 Gone' });
    const emf = lines.find((l) => l.includes('"EndpointsDisabled"'));
    expect(emf).toBeDefined();
    expect(JSON.parse(emf!)._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'TalentPipeline' });
  });
});

describe('secrets', () => {
  it('never appear in captured output', async () => {
    const out = captured.join('');
    expect(out).not.toMatch(/whsec_/);
  });
});
