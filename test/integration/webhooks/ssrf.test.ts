/**
 * SSRF in deployed mode (WEBHOOK_ALLOW_LOOPBACK unset/false), end to end: loopback URLs are
 * refused at creation, and a host NAME that resolves to loopback (allowed at creation) is refused
 * at connect time: a real loopback TLS sink counting TCP connections sees none.
 *
 * The name is resolved by the process resolver (dns.lookup); the test points one made-up name at
 * 127.0.0.1, as an attacker's DNS would, so the check does not depend on the machine's hosts file.
 */
import dns from 'node:dns';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sendWebhook } from '../../../lib/webhooks/send';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../../helpers/stack';
import { tlsServers, type TestServer } from '../../helpers/tls-servers';

const REBIND_HOST = 'hooks.rebind-to-loopback.example';
const servers = tlsServers(inject('tls'));

/** The loopback TLS sink; it counts requests as they start (none should ever get that far). */
let sink: TestServer;
let stack: Stack;
let tenant: TestTenant;
let cookie: string;
let token: string;
const realLookup = dns.lookup;

beforeAll(async () => {
  sink = await servers.start((_req, res) => res.end('sink'), { onRequestStart: true });
  // REBIND_HOST resolves to loopback; every other name resolves as usual.
  (dns as { lookup: unknown }).lookup = (hostname: string, options: unknown, callback: unknown) => {
    if (hostname !== REBIND_HOST) return (realLookup as (...a: unknown[]) => void)(hostname, options, callback);
    const cb = (typeof options === 'function' ? options : callback) as (...a: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    process.nextTick(() => (all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)));
  };
  stack = await startStack({ webhooks: { allowLoopback: false, retrySchedule: '0', timeoutMs: 500 } });
  tenant = await stack.tenant();
  cookie = await stack.login((await tenant.user('admin')).email, PASSWORD);
  token = await tenant.token(['*']);
});

afterAll(async () => {
  await stack?.close();
  dns.lookup = realLookup;
  await servers.closeAll();
});

const session = (method: string, path: string, body?: unknown) =>
  stack.call(method, path, { headers: { Cookie: cookie }, ...(body !== undefined && { body }) });

describe('creation-time check', () => {
  it('refuses loopback, private and metadata literals (and localhost names) with 400', async () => {
    const p = sink.port;
    const refused = [
      `https://127.0.0.1:${p}/hook`,
      `https://127.0.0.2:${p}/hook`,
      `https://2130706433:${p}/hook`,
      `https://0x7f.1:${p}/hook`,
      `https://[::1]:${p}/hook`,
      `https://[::ffff:127.0.0.1]:${p}/hook`,
      `https://0.0.0.0:${p}/hook`,
      `https://10.1.2.3/hook`,
      `https://192.168.0.10/hook`,
      `https://169.254.169.254/latest/meta-data`,
      `https://localhost:${p}/hook`,
      `https://api.localhost:${p}/hook`,
    ];
    for (const url of refused) {
      const res = await session('POST', '/api/webhooks', { url });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatch(/^url must not point at a/);
    }
    expect((await session('GET', '/api/webhooks')).body.data).toEqual([]);
  });

  it('refuses a loopback literal in PATCH too', async () => {
    const created = await session('POST', '/api/webhooks', { url: 'https://hooks.example.com/in' });
    expect(created.status).toBe(201);
    const res = await session('PATCH', `/api/webhooks/${created.body.webhook.id}`, { url: `https://127.0.0.1:${sink.port}/` });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/loopback/);
    expect((await session('GET', `/api/webhooks/${created.body.webhook.id}`)).body.webhook.url).toBe('https://hooks.example.com/in');
    await session('DELETE', `/api/webhooks/${created.body.webhook.id}`);
  });
});

describe('connect-time guard for a name resolving to loopback', () => {
  let webhookId: string;

  it('control: the name really routes to the sink when loopback is allowed', async () => {
    const before = sink.connections;
    const r = await sendWebhook(`https://${REBIND_HOST}:${sink.port}/`, '{}', {}, { timeoutMs: 2_000, allowLoopback: true });
    // It connects (the cert does not name REBIND_HOST, so TLS then fails): the sink counts it.
    expect(r.status).toBe(0);
    expect(r.error).toMatch(/^tls error/);
    expect(sink.connections).toBeGreaterThan(before);
    sink.connections = 0;
    sink.requests.length = 0;
  });

  it('is allowed at creation (a DNS name), but candidate events never connect: status 0, blocked', async () => {
    const created = await session('POST', '/api/webhooks', { url: `https://${REBIND_HOST}:${sink.port}/hook` });
    expect(created.status).toBe(201);
    webhookId = created.body.webhook.id;

    for (const name of ['Ssrf One', 'Ssrf Two']) {
      expect((await stack.call('POST', '/api/v1/candidates', { token, body: { name } })).status).toBe(201);
    }
    // Schedule '0': each event is attempted twice; wait for the attempts of both events.
    const deadline = Date.now() + 15_000;
    let deliveries: any[] = [];
    while (Date.now() < deadline) {
      deliveries = (await session('GET', `/api/webhooks/${webhookId}`)).body.deliveries;
      if (new Set(deliveries.map((d) => d.event_id)).size >= 2 && deliveries.length >= 4) break;
      await sleep(50);
    }
    expect(new Set(deliveries.map((d) => d.event_id)).size).toBe(2);
    expect(deliveries.length).toBeGreaterThanOrEqual(4);
    for (const d of deliveries) {
      expect(d).toMatchObject({ event_type: 'candidate.created', response_status: 0, success: false, response_body: null });
      expect(d.error).toMatch(/^blocked target: 127\.0\.0\.1 is loopback/);
    }
    await sleep(100); // let any stray connect attempt land before counting
    expect(sink.connections).toBe(0);
    expect(sink.requests).toHaveLength(0);
  });

  it('the test operation is refused the same way, without a connection', async () => {
    const res = await session('POST', `/api/webhooks/${webhookId}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, status: 0, responseBody: '' });
    const { deliveries } = (await session('GET', `/api/webhooks/${webhookId}`)).body;
    expect(deliveries[0]).toMatchObject({ event_type: 'webhook.test', response_status: 0, success: false });
    expect(deliveries[0].error).toMatch(/^blocked target: 127\.0\.0\.1 is loopback/);
    await sleep(100);
    expect(sink.connections).toBe(0);
  });
});
