/**
 * Counters must stay exact when writes race. DynamoDB Local serializes transactions and never
 * raises TransactionConflict, so what races here is the read-decide-write of stage moves:
 * the losers' condition fails and they retry from the stage the winner left.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { STAGES } from '../../lib/model';
import { createRequisition } from '../../lib/store/requisitions';

let stack: Stack;
let token: string;
let reqId: string;

beforeAll(async () => {
  stack = await startStack();
  const t = await stack.tenant();
  token = await t.token(['*']);
  reqId = (await createRequisition(t.id, { title: 'Race', status: 'open' })).id;
});
afterAll(() => stack.close());

async function listAll() {
  const out: { id: string; stage: string; req_id: string | null }[] = [];
  for (let offset = 0; ; offset += 200) {
    const res = await stack.call('GET', `/api/v1/candidates?limit=200&offset=${offset}`, { token });
    out.push(...res.body.data);
    if (res.body.data.length < 200) return out;
  }
}

async function expectCountersMatch() {
  const all = await listAll();
  const actual = Object.fromEntries(STAGES.map((s) => [s, all.filter((c) => c.stage === s).length]));
  const pipeline = (await stack.call('GET', '/api/v1/pipeline', { token })).body.data;
  expect(pipeline.stage_counts).toEqual(actual);
  expect((await stack.call('GET', '/api/v1/candidates?limit=1', { token })).body.count).toBe(all.length);
  const req = (await stack.call('GET', '/api/v1/requisitions', { token })).body.data[0];
  const mine = all.filter((c) => c.req_id === reqId);
  expect(req.candidate_count).toBe(String(mine.length));
  // Stage moves alone send no offer.
  expect(req.offers_pending).toBe('0');
  for (const stage of STAGES.filter((s) => s !== 'rejected')) {
    const res = await stack.call('GET', `/api/v1/candidates?stage=${stage}&req_id=${reqId}&limit=1`, { token });
    expect(res.body.count, stage).toBe(mine.filter((c) => c.stage === stage).length);
  }
  return all;
}

it('keeps counts exact under 50 concurrent creates', async () => {
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      stack.call('POST', '/api/v1/candidates', {
        token,
        body: { name: `Racer ${i}`, stage: STAGES[i % STAGES.length], ...(i % 3 !== 0 && { req_id: reqId }) },
      }),
    ),
  );
  expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
  const all = await expectCountersMatch();
  expect(all).toHaveLength(50);
});

it('keeps counts exact under 50 concurrent stage changes, many on the same candidates', async () => {
  const all = await listAll();
  const targets = all.slice(0, 5);
  // 50 moves: ten racing moves on each of five candidates, to varied stages.
  const moves = Array.from({ length: 50 }, (_, i) => ({
    candidate_id: targets[i % 5]!.id,
    stage: STAGES[(i * 7) % STAGES.length]!,
  }));
  const results = await Promise.all(moves.map((body) => stack.call('POST', '/api/v1/pipeline', { token, body })));
  expect(results.map((r) => (r.status === 200 ? 200 : `${r.status} ${r.text}`))).toEqual(Array(50).fill(200));
  await expectCountersMatch();
});

it('keeps counts exact when creates and moves race together', async () => {
  const all = await listAll();
  const ops = Array.from({ length: 50 }, (_, i) =>
    i % 2
      ? stack.call('POST', '/api/v1/candidates', { token, body: { name: `Mixed ${i}`, req_id: reqId, stage: 'offer_sent' } })
      : stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: all[i % 10]!.id, stage: i % 4 ? 'offer_sent' : 'placed' } }),
  );
  const statuses = (await Promise.all(ops)).map((r) => r.status);
  expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
  await expectCountersMatch();
});
