/**
 * Requisition writes that race. DynamoDB Local serializes transactions and never raises
 * TransactionConflict, so what races is the read-decide-write: the losers' conditions fail and
 * they decide again on what the winner left.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';

let stack: Stack;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  token = await (await stack.tenant()).token(['*']);
});
afterAll(() => stack.close());

it('20 parallel status changes leave one consistent history: no lost or doubled record', async () => {
  const id = (await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Contended' } })).body.data.id;
  const targets = ['on_hold', 'open', 'closed', 'filled', 'open'] as const;
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => {
      const status = targets[i % targets.length]!;
      return stack.call('POST', `/api/v1/requisitions/${id}/status`, {
        token,
        body: { status, ...(status === 'on_hold' || status === 'closed' ? { reason: `r${i}` } : {}) },
      });
    }),
  );
  // Each answer is a change, a no-op or a refusal by the matrix; nothing else.
  for (const r of results) expect([200, 409], r.text).toContain(r.status);
  for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('invalid_transition');
  const res = await stack.call('GET', `/api/v1/requisitions/${id}`, { token });
  const history = res.body.data.status_history as { from: string | null; to: string }[];
  // One chain: every record starts where the one before ended, and the last is where it is.
  expect(history[0]).toMatchObject({ from: null, to: 'open' });
  for (let i = 1; i < history.length; i++) expect(history[i]!.from, `record ${i}`).toBe(history[i - 1]!.to);
  for (const h of history.slice(1)) expect(h.from).not.toBe(h.to);
  expect(history.at(-1)!.to).toBe(res.body.data.status);
  // The version counts the records: none lost, none doubled.
  expect(res.headers.get('etag')).toBe(`"${history.length}"`);
  expect(history.length - 1).toBeLessThanOrEqual(results.filter((r) => r.status === 200).length);
  expect(history.length).toBeGreaterThan(1);
  // The status counters moved with every change: this requisition is listed under its status alone.
  for (const s of ['open', 'on_hold', 'filled', 'closed', 'draft']) {
    const list = await stack.call('GET', `/api/v1/requisitions?status=${s}`, { token });
    expect(list.body.count, s).toBe(s === res.body.data.status ? 1 : 0);
    expect(
      list.body.data.map((r: { id: string }) => r.id),
      s,
    ).toEqual(s === res.body.data.status ? [id] : []);
  }
});

it('50 parallel moves into placed on a requisition with headcount 3 leave exactly 3 hires and one filled change', async () => {
  // A workspace of its own: the race above may leave its requisition filled, which the workspace's
  // filled count below would then include.
  const token = await (await stack.tenant()).token(['*']);
  const id = (await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Three seats', headcount: 3 } })).body.data.id;
  const ids: string[] = [];
  for (let i = 0; i < 50; i++) {
    const c = await stack.call('POST', '/api/v1/candidates', {
      token,
      body: { name: `Finalist ${i}`, req_id: id, stage: 'offer_accepted' },
    });
    expect(c.status).toBe(201);
    ids.push(c.body.data.id);
  }
  const results = await Promise.all(
    ids.map((candidate_id) => stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id, stage: 'placed' } })),
  );
  expect(results.filter((r) => r.status === 200)).toHaveLength(3);
  for (const r of results.filter((x) => x.status !== 200)) expect(r.body.code, r.text).toBe('headcount_reached');
  const req = (await stack.call('GET', `/api/v1/requisitions/${id}`, { token })).body.data;
  expect(req).toMatchObject({ status: 'filled', hires: 3, headcount: 3 });
  expect(req.status_history.filter((h: { to: string }) => h.to === 'filled')).toEqual([
    expect.objectContaining({ from: 'open', to: 'filled', actor: { type: 'system' } }),
  ]);
  const placed = await stack.call('GET', `/api/v1/candidates?req_id=${id}&stage=placed&limit=200`, { token });
  expect(placed.body.count).toBe(3);
  expect(placed.body.data).toHaveLength(3);
  const pipeline = (await stack.call('GET', '/api/v1/pipeline', { token })).body.data;
  expect(pipeline.stage_counts.placed).toBe(3);
  expect((await stack.call('GET', '/api/v1/requisitions?status=filled', { token })).body.count).toBe(1);
});
