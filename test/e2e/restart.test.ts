/**
 * What `npm start` keeps across a restart (its SQS lives in memory), both stopped midway in one
 * run and resumed by one restart:
 * - a bulk import, stopped with rows of its current slice written but not yet counted: the
 *   restarted npm start finishes it from where it stopped, with exact counts and no candidate twice;
 * - a scheduled webhook retry: the first attempt fails, npm start stops, the receiver recovers only
 *   then, and the restarted npm start delivers the next attempt of the same event, once.
 * The two share nothing but the runtime: the endpoint takes requisition.created only, which no
 * import row makes, and the import's rows are candidates only.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHEAP_PASSWORDS, demoSession, e2eSandbox, type Running, sleep, stopLocal } from '../helpers/processes';
import { tlsServers } from '../helpers/tls-servers';
import { until as waitUntil } from '../helpers/until';

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

// Where the import's stop lands is not raced: the first npm start holds its worker for good once it
// has written file row HOLD_AT (TP_IMPORT_HOLD_AT_ROW, lib/domain/import-run.ts), in the second
// slice of 250 rows, before that slice is counted, and says so on stderr (a warning: the level is set here).
// 600 rows: the resume redoes a slice half written, then crosses from the file's first chunk (500
// rows) to its second.
const ROWS = 600;
const HOLD_AT = 300;
const SLICE = 250;
// The webhook retry comes 8 s (±20%) after the first attempt: time enough to stop before it. On a
// loaded machine the stop can take longer, and attempt 2 then fails against the still-down
// receiver before the stop: the restart then delivers attempt 3. Either way the one success can
// only come from the restarted process.
const ENV = { WEBHOOK_RETRY_SCHEDULE: '8,8', POWERTOOLS_LOG_LEVEL: 'WARN', ...CHEAP_PASSWORDS };

type Call = (path: string, init?: RequestInit) => Promise<{ status: number; body: any }>;
/** The API with the demo token, and the console API with a demo admin's session, of one runtime. */
async function clients(r: Running): Promise<{ api: Call; session: Call }> {
  const { site, cookie } = await demoSession(r);
  const call =
    (base: string, auth: Record<string, string>): Call =>
    (path, init = {}) =>
      fetch(`${base}${path}`, { ...init, headers: { ...auth, ...init.headers } }).then(async (res) => ({
        status: res.status,
        body: (await res.json()) as any,
      }));
  return { api: call(r.baseUrl, { Authorization: `Bearer ${r.demoToken}` }), session: call(site, { Cookie: cookie }) };
}
const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('npm start restarted during an import and between two webhook attempts', { timeout: 180_000 }, () => {
  let dataDir: string;
  let first: Running;
  let before: number;
  let importId: string;
  let hookId: string;
  let failed: number;

  const count = async (api: Call) => (await api('/candidates?limit=1')).body.count as number;
  const job = async (api: Call) => (await api(`/candidates/imports/${importId}`)).body.data;

  beforeAll(async () => {
    dataDir = freshDir('restart');
    first = await startLocal(dataDir, undefined, { ...ENV, TP_IMPORT_HOLD_AT_ROW: String(HOLD_AT) });
  });

  it('holds the import midway: one slice counted, the next written up to the hold row and not counted', async () => {
    const { api } = await clients(first);
    before = await count(api);
    const csv = ['name,email', ...Array.from({ length: ROWS }, (_, i) => `Restart Person ${i},restart-${i}@import.example`)].join('\n');
    const posted = await api('/candidates/imports', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: csv });
    expect(posted.status).toBe(202);
    importId = posted.body.data.id;
    // Rows are written in file order, a transaction's worth at a time (the workspace's counter
    // moves with them): once the one with row HOLD_AT is written, the worker says so and holds.
    await until('the worker to reach the hold', () => first.stderr().includes('import held by TP_IMPORT_HOLD_AT_ROW'), 60_000);
    const midway = await job(api);
    expect(midway.processed).toBe(SLICE);
    const written = (await count(api)) - before;
    expect(written).toBeGreaterThanOrEqual(HOLD_AT - 1);
    expect(written).toBeLessThan(SLICE * 2);
  });

  it('records the failed first attempt with its next attempt time', async () => {
    const receiver = await servers.start((req, res, body) => {
      hits.push({ headers: req.headers, body: body.toString('utf8'), ok: healthy });
      res.writeHead(healthy ? 200 : 503).end(healthy ? 'ok' : 'down for maintenance');
    });
    const { api, session } = await clients(first);
    const hook = await session('/api/webhooks', json({ url: receiver.url('/restart'), events: ['requisition.created'] }));
    expect(hook.status).toBe(201);
    hookId = hook.body.webhook.id;
    const created = await api('/requisitions', json({ title: 'Restart Test' }));
    expect(created.status).toBe(201);

    // The requisition's event reaches the fan-out behind those of the import's rows written so far
    // (one stream): bounded as the import's own waits are.
    const [attempt1] = await until(
      'attempt 1 recorded',
      async () => {
        const d = (await session(`/api/webhooks/${hookId}/deliveries`)).body.data;
        return d.length === 1 && d;
      },
      60_000,
    );
    expect(attempt1).toMatchObject({ attempt: 1, success: false, response_status: 503, dead_lettered: false });
    expect(Date.parse(attempt1.next_attempt_at)).toBeGreaterThan(Date.now());
  });

  it('stops with both unfinished, the receiver having seen only failures', async () => {
    expect(await stopLocal(first)).toEqual({ code: 0, signal: null });
    failed = hits.length;
    expect(failed).toBeGreaterThanOrEqual(1);
    expect(hits.every((h) => !h.ok)).toBe(true);
  });

  describe('restarted', () => {
    let second: Running;
    let api: Call;
    let session: Call;
    beforeAll(async () => {
      healthy = true;
      second = await startLocal(dataDir, undefined, ENV);
      ({ api, session } = await clients(second));
    });

    it('delivers the scheduled retry, with the same webhook-id, exactly once', async () => {
      expect(second.stdout()).toMatch(/restored 1 scheduled retries/);
      const delivered = await until('the retry delivered', async () => hits.find((h) => h.ok), 40_000);
      expect(delivered.headers['webhook-id']).toBe(hits[0]!.headers['webhook-id']);
      expect(delivered.body).toBe(hits[0]!.body);
      const log = await until('the delivered attempt recorded', async () => {
        const d = (await session(`/api/webhooks/${hookId}/deliveries`)).body.data;
        return d.length === failed + 1 && d;
      });
      // Newest first: the success, then every failed attempt before the restart.
      expect(log.map((d: any) => [d.attempt, d.success])).toEqual(Array.from({ length: failed + 1 }, (_, i) => [failed + 1 - i, i === 0]));
      await sleep(1_000);
      expect(hits.filter((h) => h.ok)).toHaveLength(1);
    });

    it('resumes the import where it stopped: exact counts, every row once', async () => {
      expect(second.stdout()).toMatch(/resumed 1 unfinished import/);
      const done = await until(
        'the import to end',
        async () => {
          const j = await job(api);
          return j.status !== 'queued' && j.status !== 'running' && j;
        },
        120_000,
      );
      expect(done).toMatchObject({ status: 'completed', counts: { total: ROWS, created: ROWS, skipped: 0, failed: 0 }, processed: ROWS });
      // The workspace's exact counter, and the candidates themselves: each email once.
      expect(await count(api)).toBe(before + ROWS);
      const emails = new Set<string>();
      let cursor: string | null = null;
      do {
        const page: { body: { data: { email: string | null }[]; next_cursor: string | null } } = await api(
          `/candidates?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        for (const c of page.body.data)
          if (c.email?.endsWith('@import.example')) {
            expect(emails.has(c.email)).toBe(false);
            emails.add(c.email);
          }
        cursor = page.body.next_cursor;
      } while (cursor);
      expect(emails.size).toBe(ROWS);
      expect(await stopLocal(second)).toEqual({ code: 0, signal: null });
    });
  });
});
