/**
 * A bulk import survives a restart of `npm start` (its SQS lives in memory): an import is stopped
 * midway, with rows of its current slice written but not yet counted, and the restarted npm start
 * finishes it from where it stopped, with exact counts and no candidate twice.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { e2eSandbox, stopLocal } from '../helpers/processes';
import { until } from '../helpers/until';

const { freshDir, startLocal, cleanup } = e2eSandbox();
afterAll(() => cleanup(10_000), 60_000);

// Where the stop lands is not raced: the first npm start holds its worker for good once it has
// written file row HOLD_AT (TP_IMPORT_HOLD_AT_ROW, lib/domain/import-run.ts), in the second slice of
// 250 rows, before that slice is counted. 600 rows: the resume redoes a slice half written, then
// crosses from the file's first chunk (500 rows) to its second.
const ROWS = 600;
const HOLD_AT = 300;
const SLICE = 250;

describe('npm start restart during an import', { timeout: 180_000 }, () => {
  it('resumes the job where it stopped: exact counts, every row once', async () => {
    const dataDir = freshDir('import-restart');
    const first = await startLocal(dataDir, undefined, { TP_IMPORT_HOLD_AT_ROW: String(HOLD_AT) });
    const call = (base: string, token: string, path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...init.headers } }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as any,
      }));
    const count = async (base: string, token: string) => (await call(base, token, '/candidates?limit=1')).body.count as number;
    const before = await count(first.baseUrl, first.demoToken);
    const csv = ['name,email', ...Array.from({ length: ROWS }, (_, i) => `Restart Person ${i},restart-${i}@import.example`)].join('\n');
    const posted = await call(first.baseUrl, first.demoToken, '/candidates/imports', {
      method: 'POST',
      headers: { 'Content-Type': 'text/csv' },
      body: csv,
    });
    expect(posted.status).toBe(202);
    const id = posted.body.data.id as string;
    const job = (base: string, token: string) => call(base, token, `/candidates/imports/${id}`).then((r) => r.body.data);

    // Stopped where the worker holds: one slice counted, and the next one's rows up to HOLD_AT
    // written but not counted. Rows are written in file order, a transaction's worth at a time
    // (the workspace's counter moves with them): once row HOLD_AT's candidate exists, the worker
    // holds and writes nothing more.
    await until('the worker to reach the hold', async () => (await count(first.baseUrl, first.demoToken)) >= before + HOLD_AT - 1, 60_000);
    const midway = await job(first.baseUrl, first.demoToken);
    expect(midway.processed).toBe(SLICE);
    const written = await count(first.baseUrl, first.demoToken);
    expect(written - before).toBeLessThan(SLICE * 2);
    expect(await stopLocal(first)).toEqual({ code: 0, signal: null });

    const second = await startLocal(dataDir);
    expect(second.stdout()).toMatch(/resumed 1 unfinished import/);
    const done = await until(
      'the import to end',
      async () => {
        const j = await job(second.baseUrl, second.demoToken);
        return j.status !== 'queued' && j.status !== 'running' && j;
      },
      120_000,
    );
    expect(done).toMatchObject({ status: 'completed', counts: { total: ROWS, created: ROWS, skipped: 0, failed: 0 }, processed: ROWS });
    // The workspace's exact counter, and the candidates themselves: each email once.
    expect(await count(second.baseUrl, second.demoToken)).toBe(before + ROWS);
    const emails = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: { body: { data: { email: string | null }[]; next_cursor: string | null } } = await call(
        second.baseUrl,
        second.demoToken,
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
