/**
 * A scheduled retry survives a restart of `npm start` (its SQS lives in memory): the first
 * attempt fails, npm start stops, the receiver recovers only then, and the restarted npm start
 * delivers the next attempt of the same event, once. The retry is due 6.4-9.6 s after the first
 * attempt; on a loaded machine the stop can take longer, and attempt 2 then fails against the
 * still-down receiver before the stop: the restart then delivers attempt 3. Either way the one
 * success can only come from the restarted process.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { e2eSandbox, sleep, stopLocal } from '../helpers/processes';
import { until as waitUntil } from '../helpers/until';
import { tlsServers } from '../helpers/tls-servers';

const { freshDir, startLocal, cleanup } = e2eSandbox();
const servers = tlsServers(inject('tls'));
const hits: { headers: IncomingHttpHeaders; body: string; ok: boolean }[] = [];
let healthy = false;

afterAll(async () => {
  await cleanup(10_000);
  await servers.closeAll();
}, 60_000);

/** Its waits span a restart: 30 s unless told. */
const until = <T>(what: string, probe: () => T | Promise<T>, timeoutMs = 30_000) => waitUntil(what, probe, timeoutMs);

describe('npm start restart between two attempts', { timeout: 120_000 }, () => {
  it('delivers the scheduled retry after the restart, with the same webhook-id, exactly once', async () => {
    const receiver = await servers.start((req, res, body) => {
      hits.push({ headers: req.headers, body: body.toString('utf8'), ok: healthy });
      res.writeHead(healthy ? 200 : 503).end(healthy ? 'ok' : 'down for maintenance');
    });
    const dataDir = freshDir('restart');
    // The retry comes 8 s (±20%) after the first attempt: time enough to stop before it.
    const env = { WEBHOOK_RETRY_SCHEDULE: '8,8' };
    const first = await startLocal(dataDir, undefined, env);
    const site = first.baseUrl.replace(/\/api\/v1$/, '');
    const [, email, password] = /Demo login\s+(\S+) \/ (\S+)/.exec(first.stdout())!;
    const login = await fetch(`${site}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('__Host-tp_session='))!
      .split(';')[0]!;
    const session = (method: string, path: string, body?: unknown) =>
      fetch(`${site}${path}`, {
        method,
        headers: { Cookie: cookie, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

    const hook = await session('POST', '/api/webhooks', { url: receiver.url('/restart'), events: ['candidate.created'] });
    expect(hook.status).toBe(201);
    const id = hook.body.webhook.id as string;
    const created = await fetch(`${first.baseUrl}/candidates`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${first.demoToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Restart Test' }),
    });
    expect(created.status).toBe(201);

    // Attempt 1 fails and is recorded with its next attempt time; then npm start stops.
    const [attempt1] = await until('attempt 1 recorded', async () => {
      const d = (await session('GET', `/api/webhooks/${id}/deliveries`)).body.data;
      return d.length === 1 && d;
    });
    expect(attempt1).toMatchObject({ attempt: 1, success: false, response_status: 503, dead_lettered: false });
    expect(Date.parse(attempt1.next_attempt_at)).toBeGreaterThan(Date.now());
    expect(await stopLocal(first)).toEqual({ code: 0, signal: null });
    const failed = hits.length;
    expect(failed).toBeGreaterThanOrEqual(1);
    expect(hits.every((h) => !h.ok)).toBe(true);

    healthy = true;
    const second = await startLocal(dataDir, undefined, env);
    expect(second.stdout()).toMatch(/restored 1 scheduled retries/);
    const delivered = await until('the retry delivered', async () => hits.find((h) => h.ok), 40_000);
    expect(delivered.headers['webhook-id']).toBe(hits[0]!.headers['webhook-id']);
    expect(delivered.body).toBe(hits[0]!.body);
    const site2 = second.baseUrl.replace(/\/api\/v1$/, '');
    const login2 = await fetch(`${site2}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const cookie2 = login2.headers
      .getSetCookie()
      .find((c) => c.startsWith('__Host-tp_session='))!
      .split(';')[0]!;
    const log = await until('the delivered attempt recorded', async () => {
      const d = ((await (await fetch(`${site2}/api/webhooks/${id}/deliveries`, { headers: { Cookie: cookie2 } })).json()) as any).data;
      return d.length === failed + 1 && d;
    });
    // Newest first: the success, then every failed attempt before the restart.
    expect(log.map((d: any) => [d.attempt, d.success])).toEqual(Array.from({ length: failed + 1 }, (_, i) => [failed + 1 - i, i === 0]));
    await sleep(1_000);
    expect(hits.filter((h) => h.ok)).toHaveLength(1);
  });
});
