/**
 * The bench's mixed load in small: creates (some straight into placed, some replayed with an
 * Idempotency-Key), stage moves, a requisition change and reads, concurrent, on one requisition;
 * and once every answer is in, every counter compared with the records, round after round. An
 * answered request must have finished its writes: a count read after the last answer never
 * changes later (lib/time-budget.ts), so the comparison needs no wait.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { LIST_STAGES, STAGES } from '../../lib/model';

let stack: Stack;
let token: string;
let reqId: string;
const ids: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  token = await (await stack.tenant()).token(['*']);
  reqId = (await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Contended', headcount: 1_000 } })).body.data.id;
  // A few candidates off the requisition too, as the demo workspace has.
  for (let i = 0; i < 6; i++) {
    const c = await stack.call('POST', '/api/v1/candidates', { token, body: { name: `Seed ${i}`, ...(i % 2 && { req_id: reqId }) } });
    ids.push(c.body.data.id);
  }
});
afterAll(() => stack.close());

type Candidate = { id: string; stage: string; req_id: string | null };

/** Every candidate, read through the cursor (the base table, consistently). */
async function records(): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (let cursor: string | null = null; ; ) {
    const res = await stack.call('GET', `/api/v1/candidates?limit=200${cursor ? `&cursor=${cursor}` : ''}`, { token });
    out.push(...res.body.data);
    cursor = res.body.next_cursor;
    if (!cursor) return out;
  }
}

async function expectCountersMatchRecords(round: number) {
  const all = await records();
  const by = (list: Candidate[], stage: string) => list.filter((c) => c.stage === stage).length;
  const pipeline = (await stack.call('GET', '/api/v1/pipeline', { token })).body.data;
  expect(pipeline.stage_counts, `round ${round}: workspace stages`).toEqual(Object.fromEntries(STAGES.map((s) => [s, by(all, s)])));
  expect((await stack.call('GET', '/api/v1/candidates?limit=1', { token })).body.count, `round ${round}: workspace total`).toBe(all.length);
  const mine = all.filter((c) => c.req_id === reqId);
  const req = (await stack.call('GET', `/api/v1/requisitions/${reqId}`, { token })).body.data;
  expect([req.candidate_count, req.offers_pending, req.hires], `round ${round}: requisition`).toEqual([
    String(mine.length),
    // No offer is sent here: the stage moves alone never count as pending offers.
    '0',
    by(mine, 'placed'),
  ]);
  const perStage = await Promise.all(
    LIST_STAGES.map(async (s) => (await stack.call('GET', `/api/v1/candidates?req_id=${reqId}&stage=${s}&limit=1`, { token })).body.count),
  );
  expect(perStage, `round ${round}: requisition stages`).toEqual(LIST_STAGES.map((s) => by(mine, s)));
}

const pick = <T>(xs: readonly T[], i: number) => xs[i % xs.length]!;

/** One connection's turn, as the bench's: reads, a create, a move; and now and then the rarer writes. */
async function turn(worker: number, round: number): Promise<number[]> {
  const k = worker + 16 * round;
  const statuses: number[] = [];
  const record = (r: { status: number; body: any }) => {
    statuses.push(r.status);
    if (r.status === 201 && r.body.data?.id && !ids.includes(r.body.data.id)) ids.push(r.body.data.id);
  };
  record(await stack.call('GET', '/api/v1/pipeline', { token }));
  const hire = k % 7 === 0;
  // Pairs of workers send the same create under one Idempotency-Key: it is made once.
  const key = k % 5 === 0 ? { 'Idempotency-Key': `create-${round}-${Math.floor(worker / 2)}` } : undefined;
  record(
    await stack.call('POST', '/api/v1/candidates', {
      token,
      headers: key,
      body: key
        ? { name: `Keyed ${round}-${Math.floor(worker / 2)}`, req_id: reqId }
        : { name: `Load ${k}`, req_id: reqId, ...(hire && { stage: 'placed' }) },
    }),
  );
  record(await stack.call('GET', '/api/v1/candidates?limit=20', { token }));
  record(await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: pick(ids, k * 7), stage: pick(STAGES, k * 3) } }));
  if (k % 4 === 0) {
    // A candidate moved onto the requisition, or off it.
    const id = pick(ids, k * 5);
    record(await stack.call('PATCH', `/api/v1/candidates/${id}`, { token, body: { req_id: k % 8 ? reqId : null } }));
  }
  record(await stack.call('GET', '/api/v1/requisitions', { token }));
  record(
    await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: pick(ids, k * 11 + 3), stage: pick(STAGES, k + 1) } }),
  );
  return statuses;
}

it('counters equal the records after every round of concurrent creates, moves and reads on one requisition', async () => {
  for (let round = 0; round < 5; round++) {
    const statuses = (await Promise.all(Array.from({ length: 16 }, (_, w) => turn(w, round)))).flat();
    // Writes may lose a race for good (409) or run out of time (429); none fails unanswered.
    for (const s of statuses) expect([200, 201, 409, 429], `round ${round}`).toContain(s);
    await expectCountersMatchRecords(round);
  }
  expect(ids.length).toBeGreaterThan(50);
}, 120_000);
