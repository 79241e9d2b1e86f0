/**
 * DynamoDB calls of the candidate routes: GET /api/v1/pipeline must cost the same at any tenant
 * size, and so must a search page and a board column; a create, a move, a profile change, an
 * Idempotency-Key and an erasure each cost a small fixed number of calls.
 */
import { expect, it } from 'vitest';
import { STAGES, type Stage } from '../../../lib/model';
import { batchPut } from '../../../lib/store/batch';
import { candidateItem } from '../../../lib/store/candidates';
import { searchItems } from '../../../lib/store/search';
import { newId } from '../../../lib/ids';
import { createRequisition } from '../../../lib/store/requisitions';
import { setStageCounters } from '../../helpers/stuck';
import { countCalls, sent, stack, useCallsFixture } from './fixture';

useCallsFixture();

/** `reqId` puts them all on one requisition; `search` writes their search items too, as a create would. */
async function seedCandidates(tenantId: string, n: number, opts: { reqId?: string; search?: boolean } = {}) {
  const entered = new Date(Date.now() - 40 * 86_400_000).toISOString();
  const items = Array.from({ length: n }, (_, i) =>
    candidateItem(tenantId, {
      id: newId(),
      name: `Bulk ${i}`,
      stage: STAGES[i % STAGES.length]!,
      req_id: opts.reqId,
      created_at: entered,
      updated_at: entered,
      stage_entered_at: entered,
    }),
  );
  // Bulk load bypasses the per-candidate transaction, so set the counters it would have kept.
  const written = opts.search ? [...items, ...items.flatMap((c) => searchItems(tenantId, c))] : items;
  expect(await batchPut(written)).toEqual([]);
  await setStageCounters(
    tenantId,
    items.map((c) => c.stage as Stage),
  );
}

async function callsFor(token: string, method: string, path: string, body?: unknown) {
  await stack.call(method, path, { token, body }); // warm the authorizer cache
  return countCalls(method, path, { token, body });
}

it('GET /api/v1/pipeline makes the same DynamoDB calls with 100 and with 2,000 candidates', async () => {
  const small = await stack.tenant();
  const big = await stack.tenant();
  await seedCandidates(small.id, 100);
  await seedCandidates(big.id, 2_000);
  const smallCalls = await callsFor(await small.token(['pipeline:read']), 'GET', '/api/v1/pipeline');
  const bigCalls = await callsFor(await big.token(['pipeline:read']), 'GET', '/api/v1/pipeline');
  expect(bigCalls.commands.sort()).toEqual(smallCalls.commands.sort());
  // One BatchGetItem (thresholds and counters: the STATS item and the counter shards) and one Query of the stuck index.
  expect(smallCalls.commands.sort()).toEqual(['BatchGetItemCommand', 'QueryCommand']);
  expect(smallCalls.commands.some((c) => c.includes('Scan'))).toBe(false);
  // The answer is still exact and complete at 2,000.
  const total = Object.values(bigCalls.body.data.stage_counts as Record<string, number>).reduce((a, b) => a + b, 0);
  expect(total).toBe(2_000);
  expect(bigCalls.body.data.stuck_candidates).toHaveLength(50);
}, 300_000);

it('a search page and a board column page cost at most 2 calls, with 100 or 2,500 candidates', async () => {
  const sizes = [100, 2_500];
  const calls: Record<string, string[]>[] = [];
  for (const n of sizes) {
    const t = await stack.tenant();
    const req = await createRequisition(t.id, { title: 'Board', status: 'open' });
    await seedCandidates(t.id, n, { reqId: req.id, search: true });
    const token = await t.token(['candidates:read']);
    const at = async (path: string) => {
      const { commands, body } = await callsFor(token, 'GET', path);
      return { commands, body };
    };
    const search = await at('/api/v1/candidates?q=bulk');
    expect(search.body.data).toHaveLength(50);
    // A selective filter on a common word: still at most two Queries, and a cursor to go on.
    const filtered = await at('/api/v1/candidates?q=bulk&stage=placed&limit=200');
    if (n > 1_000) expect(filtered.body.next_cursor).not.toBeNull();
    const words = await at('/api/v1/candidates?q=bulk%2099');
    expect(words.body.data.map((c: { name: string }) => c.name)).toContain('Bulk 99');
    const column = await at(`/api/v1/candidates?req_id=${req.id}&stage=interviewed`);
    expect(column.body.data.every((c: { stage: string }) => c.stage === 'interviewed')).toBe(true);
    expect(column.body.data.length).toBe(Math.min(50, Math.ceil((n - STAGES.indexOf('interviewed')) / STAGES.length)));
    calls.push({ search: search.commands, filtered: filtered.commands, words: words.commands, column: column.commands.sort() });
  }
  for (const c of calls) {
    for (const key of ['search', 'filtered', 'words']) {
      expect(c[key]!.length, key).toBeLessThanOrEqual(2);
      expect(new Set(c[key]), key).toEqual(new Set(['QueryCommand']));
    }
    // The requisition's counters (the exact count) and one Query of its GSI5 column.
    expect(c.column).toEqual(['GetItemCommand', 'QueryCommand']);
  }
  // A page with nothing filtered out needs one Query at any size.
  expect(calls.map((c) => c.search)).toEqual([['QueryCommand'], ['QueryCommand']]);
}, 300_000);

it('list and write routes cost a small fixed number of calls', async () => {
  const t = await stack.tenant();
  const token = await t.token(['*']);
  const req = await createRequisition(t.id, { title: 'Calls', status: 'open' });
  const create = await callsFor(token, 'POST', '/api/v1/candidates', { name: 'A', req_id: req.id });
  expect(create.commands).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  // With an email, the person match: one GetItem more (the email's claim, read beside the requisition).
  sent.length = 0;
  const matched = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'M', email: 'm@calls.example', req_id: req.id } });
  expect(matched.status).toBe(201);
  expect([...sent].sort()).toEqual(['GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
  // The person's page: the person and one Query of their candidates, at once.
  const page = await callsFor(token, 'GET', `/api/v1/people/${matched.body.data.person_id}`);
  expect(page.commands.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  const id = create.body.data.id;
  const move = await callsFor(token, 'POST', '/api/v1/pipeline', { candidate_id: id, stage: 'offer_sent' });
  // The warm-up call already moved it, so the counted call is the no-op path: the candidate's read,
  // and before it, as for any move into offer_sent, the workspace's offer_required (its STATS item).
  expect(move.commands).toEqual(['GetItemCommand', 'GetItemCommand']);
  sent.length = 0;
  await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'interviewed' } });
  expect(sent).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  // A rejection reads the workspace's reasons too: one GetItem more, with a reason or without.
  sent.length = 0;
  const reject = { candidate_id: id, stage: 'rejected', rejection_reason_id: 'no_response', rejection_note: 'quiet' };
  expect((await stack.call('POST', '/api/v1/pipeline', { token, body: reject })).status).toBe(200);
  expect(sent).toEqual(['GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
  sent.length = 0;
  expect((await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'interviewed' } })).status).toBe(200);
  expect(sent).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  expect((await callsFor(token, 'GET', '/api/v1/candidates')).commands.sort()).toEqual(['BatchGetItemCommand', 'QueryCommand']);
  // One candidate: its item and its stage history, in parallel.
  expect((await callsFor(token, 'GET', `/api/v1/candidates/${id}`)).commands.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  // A profile change: read, then one transaction; a new requisition adds its GetItem. A change of
  // a person field reads the person and their guards too (at once), and their other candidates
  // when they have some (one BatchGetItem).
  sent.length = 0;
  expect((await stack.call('PATCH', `/api/v1/candidates/${id}`, { token, body: { name: 'B' } })).status).toBe(200);
  expect(sent.sort()).toEqual(['GetItemCommand', 'GetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand']);
  const other = await createRequisition(t.id, { title: 'Calls 2', status: 'open' });
  sent.length = 0;
  expect((await stack.call('PATCH', `/api/v1/candidates/${id}`, { token, body: { req_id: other.id } })).status).toBe(200);
  expect(sent).toEqual(['GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
  // A change to nothing: the read alone.
  sent.length = 0;
  expect((await stack.call('PATCH', `/api/v1/candidates/${id}`, { token, body: { name: 'B' } })).status).toBe(200);
  expect(sent).toEqual(['GetItemCommand']);
  expect((await callsFor(token, 'GET', '/api/v1/requisitions')).commands.sort()).toEqual(['BatchGetItemCommand', 'QueryCommand']);
});

it('Idempotency-Key adds a PutItem and a TransactWriteItems (the answer saved, its copy-ledger entry, the erasure check) to a write, and a replay is one PutItem', async () => {
  const t = await stack.tenant();
  const token = await t.token(['*']);
  const key = { 'Idempotency-Key': 'calls-1' };
  await stack.call('GET', '/api/v1/pipeline', { token }); // warm the authorizer cache
  const counted = (method: string, path: string, body: unknown, headers: Record<string, string> = key) =>
    countCalls(method, path, { token, body, headers });
  // First use: claim the key (conditional PutItem), the write, then store the answer: a candidate,
  // so a copy of its data, saved with its ledger entry unless it was erased (TransactWriteItems).
  const first = await counted('POST', '/api/v1/candidates', { name: 'Idem calls' });
  expect(first.commands).toEqual(['PutItemCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand']);
  // A replay: the failed conditional PutItem returns the stored record; nothing else is read.
  expect((await counted('POST', '/api/v1/candidates', { name: 'Idem calls' })).commands).toEqual(['PutItemCommand']);
  const id = first.res.body.data.id;
  const move = await counted('POST', '/api/v1/pipeline', { candidate_id: id, stage: 'interviewed' }, { 'Idempotency-Key': 'calls-2' });
  expect(move.commands).toEqual(['PutItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand']);
  const patch = await counted('PATCH', `/api/v1/candidates/${id}`, { name: 'Idem calls 2' }, { 'Idempotency-Key': 'calls-3' });
  // A name is the person's: their item and their guards (at once) are read too; they have no other candidate to read.
  expect(patch.commands.sort()).toEqual(
    ['PutItemCommand', 'GetItemCommand', 'GetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand'].sort(),
  );
  // A failed request gives its key back: PutItem, the failing read, DeleteItem.
  sent.length = 0;
  const missing = await stack.call('PATCH', '/api/v1/candidates/00000000-0000-4000-8000-000000000000', {
    token,
    body: { name: 'X' },
    headers: { 'Idempotency-Key': 'calls-4' },
  });
  expect(missing.status).toBe(404);
  expect(sent).toEqual(['PutItemCommand', 'GetItemCommand', 'DeleteItemCommand']);
  // The updated_after feed: one Query per page, no counter read.
  expect((await callsFor(token, 'GET', '/api/v1/candidates?updated_after=2000-01-01T00:00:00Z')).commands).toEqual(['QueryCommand']);
});

it("an erasure costs a read, its marker, a count of the person's files, two Queries (the copy ledger and the older copy index), a write per copy and per ledger entry, and one transaction; a repeated call that finds nothing only reads", async () => {
  const t = await stack.tenant();
  const token = await t.token(['*']);
  const counted = async (method: string, path: string, body?: unknown) => {
    const { commands, body: answer } = await countCalls(method, path, { token, body });
    return { commands: commands.sort(), body: answer };
  };
  await stack.call('GET', '/api/v1/pipeline', { token }); // warm the authorizer cache
  // Created straight into placed: one copy (its placement) with its ledger entry.
  const id = (await counted('POST', '/api/v1/candidates', { name: 'Erase Calls', stage: 'placed' })).body.data.id;
  const erased = await counted('POST', `/api/v1/candidates/${id}/erase`);
  expect(erased.body.data.scrubbed).toMatchObject({ placements: 1 });
  expect(erased.commands).toEqual(
    [
      'GetItemCommand', // the candidate's person
      'QueryCommand', // the person's files, counted: their objects go before the partition does
      'GetItemCommand', // the person (their claims)
      'DeleteItemCommand', // the person, first
      'QueryCommand', // the person's partition, consistent: nothing in it to delete here (the guard is on the person item)
      'QueryCommand', // the person's candidates on their index
      'GetItemCommand', // the candidate
      'PutItemCommand', // the marker, first
      'QueryCommand', // the copy ledger, consistent
      'QueryCommand', // the copy index (copies older than the ledger)
      'UpdateItemCommand', // the placement scrubbed
      'DeleteItemCommand', // its ledger entry
      'QueryCommand', // the candidate's scorecards, their text scrubbed (none here)
      'TransactWriteItemsCommand', // the candidate, the marker, the follow-up, search entries, audit
    ].sort(),
  );
  // Again: the person is gone (a read, their files counted, their empty partition, their index),
  // then the candidate's reads, its scorecards' included.
  expect((await counted('POST', `/api/v1/candidates/${id}/erase`)).commands).toEqual(
    [
      'GetItemCommand',
      'QueryCommand',
      'GetItemCommand',
      'QueryCommand',
      'QueryCommand',
      'GetItemCommand',
      'QueryCommand',
      'QueryCommand',
      'QueryCommand',
    ].sort(),
  );
});
