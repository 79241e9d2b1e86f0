/**
 * GET /api/v1/pipeline must cost the same at any tenant size. Every DynamoDB command the
 * handlers send goes through the one shared client, so a middleware on it counts them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { settleAudit } from '../helpers/audit';
import { startStack, type Stack, recordDynamoDbCommands, COUNTING_STACK, PASSWORD } from '../helpers/stack';
import { STAGES } from '../../lib/model';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchPut } from '../../lib/store/batch';
import { ddb, tableName } from '../../lib/store/client';
import { candidateItem, placementItem } from '../../lib/store/candidates';
import { searchItems } from '../../lib/store/search';
import { keys, counter } from '../../lib/store/table';
import { newId } from '../../lib/ids';
import { createRequisition } from '../../lib/store/requisitions';

let stack: Stack;
const sent: string[] = [];

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
  const perStage = Object.fromEntries(STAGES.map((s) => [counter.stage(s), items.filter((c) => c.stage === s).length]));
  const written = opts.search ? [...items, ...items.flatMap((c) => searchItems(tenantId, c))] : items;
  expect(await batchPut(written)).toEqual([]);
  const names = Object.keys(perStage);
  await ddb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.stats(tenantId),
      UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :n${i}`).join(', ')}, #t = :t`,
      ExpressionAttributeNames: { ...Object.fromEntries(names.map((n, i) => [`#n${i}`, n])), '#t': 'total' },
      ExpressionAttributeValues: { ...Object.fromEntries(names.map((n, i) => [`:n${i}`, perStage[n]])), ':t': n },
    }),
  );
}

beforeAll(async () => {
  stack = await startStack(COUNTING_STACK);
  await recordDynamoDbCommands(sent);
}, 300_000);
afterAll(() => stack.close());

async function callsFor(token: string, method: string, path: string, body?: unknown) {
  await stack.call(method, path, { token, body }); // warm the authorizer cache
  sent.length = 0;
  const res = await stack.call(method, path, { token, body });
  expect(res.status).toBeLessThan(300);
  return { commands: [...sent], body: res.body };
}

it('GET /api/v1/pipeline makes the same DynamoDB calls with 100 and with 2,000 candidates', async () => {
  const small = await stack.tenant();
  const big = await stack.tenant();
  await seedCandidates(small.id, 100);
  await seedCandidates(big.id, 2_000);
  const smallCalls = await callsFor(await small.token(['pipeline:read']), 'GET', '/api/v1/pipeline');
  const bigCalls = await callsFor(await big.token(['pipeline:read']), 'GET', '/api/v1/pipeline');
  expect(bigCalls.commands.sort()).toEqual(smallCalls.commands.sort());
  // One GetItem (counters and thresholds: the STATS item) and one Query of the stuck index.
  expect(smallCalls.commands.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
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
  expect((await callsFor(token, 'GET', '/api/v1/candidates')).commands.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
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
  expect((await callsFor(token, 'GET', '/api/v1/requisitions')).commands.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
});

it('requisition routes: each write is at most one read and one transaction or conditional write; one read with its history is one Query', async () => {
  const t = await stack.tenant();
  const token = await t.token(['*']);
  const counted = async (method: string, path: string, body?: unknown) => {
    sent.length = 0;
    const res = await stack.call(method, path, { token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return { commands: [...sent], body: res.body };
  };
  await stack.call('GET', '/api/v1/requisitions', { token }); // warm the authorizer cache
  // Create: the requisition, its first history record and the status counter in one transaction.
  const created = await counted('POST', '/api/v1/requisitions', { title: 'Counted', headcount: 2 });
  expect(created.commands).toEqual(['TransactWriteItemsCommand']);
  const id = created.body.data.id;
  // One requisition with its status history: one Query over its sort-key range.
  expect((await counted('GET', `/api/v1/requisitions/${id}`)).commands).toEqual(['QueryCommand']);
  // Edit: a read, then one transaction (the conditional update and its audit record).
  expect((await counted('PATCH', `/api/v1/requisitions/${id}`, { title: 'Counted 2' })).commands).toEqual([
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // Status change: a read, then one transaction; a no-op: the read alone.
  expect((await counted('POST', `/api/v1/requisitions/${id}/status`, { status: 'on_hold', reason: 'Budget' })).commands).toEqual([
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  expect((await counted('POST', `/api/v1/requisitions/${id}/status`, { status: 'on_hold', reason: 'Budget' })).commands).toEqual([
    'GetItemCommand',
  ]);
  expect((await counted('POST', `/api/v1/requisitions/${id}/status`, { status: 'open' })).commands).toEqual([
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // A hire: the candidate's read, then the requisition's (its team goes on the placement, and its
  // headcount decides the hire), then one transaction.
  const a = (await counted('POST', '/api/v1/candidates', { name: 'A', req_id: id, stage: 'onboarding' })).body.data.id;
  const b = (await counted('POST', '/api/v1/candidates', { name: 'B', req_id: id, stage: 'onboarding' })).body.data.id;
  expect((await counted('POST', '/api/v1/pipeline', { candidate_id: a, stage: 'placed' })).commands).toEqual([
    'GetItemCommand',
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // The hire that fills it: the requisition read up front says so, and one transaction fills it.
  expect((await counted('POST', '/api/v1/pipeline', { candidate_id: b, stage: 'placed' })).commands).toEqual([
    'GetItemCommand',
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  expect((await counted('GET', `/api/v1/requisitions/${id}`)).body.data).toMatchObject({ status: 'filled', hires: 2 });
});

it('offer routes: a draft is a read and one transaction; a status change a read and one transaction (sending adds the stage move); one offer with its versions is one Query', async () => {
  const t = await stack.tenant();
  const token = await t.token(['*']);
  const counted = async (method: string, path: string, body?: unknown) => {
    sent.length = 0;
    const res = await stack.call(method, path, { token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return { commands: [...sent], body: res.body };
  };
  const cid = (await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Offer Count' } })).body.data.id;
  // Draft: the candidate's read, then the offer, its first version, the open-offer guard, the
  // copy-ledger entry, the erasure check and the audit intent in one transaction.
  const made = await counted('POST', `/api/v1/candidates/${cid}/offers`, {
    compensation: { amount: 70000, currency: 'GBP', period: 'year' },
    start_date: '2027-03-01',
  });
  expect(made.commands).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  const id = made.body.data.id;
  // Ask for approval: the offer's read, the workspace's chain (who the first step waits for), one
  // transaction; approve: the chain read too (no step applies here).
  expect((await counted('POST', `/api/v1/offers/${id}/status`, { status: 'pending_approval' })).commands).toEqual([
    'GetItemCommand',
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  expect((await counted('POST', `/api/v1/offers/${id}/status`, { status: 'approved' })).commands).toEqual([
    'GetItemCommand',
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // Send: the offer's read and transaction, then the candidate's move to offer_sent (its read and transaction).
  expect((await counted('POST', `/api/v1/offers/${id}/status`, { status: 'sent' })).commands).toEqual([
    'GetItemCommand',
    'TransactWriteItemsCommand',
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // The same status again: the read alone (the candidate is not moved again).
  expect((await counted('POST', `/api/v1/offers/${id}/status`, { status: 'sent' })).commands).toEqual(['GetItemCommand']);
  expect((await counted('GET', `/api/v1/offers/${id}`)).commands).toEqual(['QueryCommand']);
  // A candidate's offers: the candidate's read and the index Query, at once.
  expect((await counted('GET', `/api/v1/candidates/${cid}/offers`)).commands.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
});

it('offers awaiting a member: a page is one Query and one TransactGetItems (the session GetItem aside; GetItem grants it, no BatchGetItem), with 1 or 30 offers waiting; a decision is two reads and one transaction', async () => {
  const t = await stack.tenant();
  const token = await t.token(['*']);
  const admin = await t.user('admin');
  const approver = await t.user('recruiter');
  const adminCookie = await stack.login(admin.email, PASSWORD);
  const cookie = await stack.login(approver.email, PASSWORD);
  const put = await stack.call('PUT', '/api/settings/offer-approvals', {
    headers: { Cookie: adminCookie },
    body: { steps: [{ approvers: [approver.id], mode: 'any' }] },
  });
  expect(put.status, put.text).toBe(200);
  const counted = async (path: string, body?: unknown) => {
    sent.length = 0;
    const res = await stack.call(body ? 'POST' : 'GET', path, { headers: { Cookie: cookie }, body });
    expect(res.status, res.text).toBeLessThan(300);
    return { commands: [...sent], body: res.body };
  };
  const ask = async () => {
    const cid = (await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Awaiting Count' } })).body.data.id;
    const oid = (
      await stack.call('POST', `/api/v1/candidates/${cid}/offers`, {
        token,
        body: { compensation: { amount: 70000, currency: 'GBP', period: 'year' }, start_date: '2027-03-01' },
      })
    ).body.data.id;
    expect((await stack.call('POST', `/api/v1/offers/${oid}/status`, { token, body: { status: 'pending_approval' } })).status).toBe(200);
    return oid as string;
  };
  const first = await ask();
  const one = await counted('/api/offers/approvals');
  expect(one.commands).toEqual(['GetItemCommand', 'QueryCommand', 'TransactGetItemsCommand']);
  expect(one.body).toMatchObject({ count: 1, data: [{ offer: { id: first } }] });
  for (let i = 0; i < 29; i++) await ask();
  const full = await counted('/api/offers/approvals?limit=25');
  expect(full.commands).toEqual(['GetItemCommand', 'QueryCommand', 'TransactGetItemsCommand']);
  expect(full.body.count).toBe(30);
  expect(full.body.data).toHaveLength(25);
  const rest = await counted(`/api/offers/approvals?limit=25&cursor=${encodeURIComponent(full.body.next_cursor)}`);
  expect(rest.commands).toEqual(['GetItemCommand', 'QueryCommand', 'TransactGetItemsCommand']);
  expect(rest.body.data).toHaveLength(5);
  // Deciding: the offer with its decisions (one Query) and the chain at once, then one transaction
  // that also takes the offer off the approver's list.
  const decided = await counted(`/api/offers/${first}/approvals`, { decision: 'approve' });
  expect(decided.commands.sort()).toEqual(['GetItemCommand', 'GetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand'].sort());
  expect((await counted('/api/offers/approvals')).body.count).toBe(29);
}, 300_000);

it('placements: a hire from an accepted offer reads the candidate, then its requisition and offer at once, then one transaction; a page of GET /placements is one Query among 2,500 placements, whatever the filters', async () => {
  const t = await stack.tenant();
  const token = await t.token(['*']);
  const counted = async (method: string, path: string, body?: unknown) => {
    sent.length = 0;
    const res = await stack.call(method, path, { token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return { commands: [...sent], body: res.body };
  };
  const reqId = (await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Counted Hire', headcount: 3 } })).body.data.id;
  const cid = (await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Hire Count', req_id: reqId } })).body.data.id;
  const oid = (
    await stack.call('POST', `/api/v1/candidates/${cid}/offers`, {
      token,
      body: { compensation: { amount: 70000, currency: 'GBP', period: 'year' }, start_date: '2027-03-01' },
    })
  ).body.data.id;
  for (const status of ['pending_approval', 'approved', 'sent', 'accepted']) {
    expect((await stack.call('POST', `/api/v1/offers/${oid}/status`, { token, body: { status } })).status).toBe(200);
  }
  const hire = await counted('POST', '/api/v1/pipeline', { candidate_id: cid, stage: 'placed' });
  expect(hire.commands).toEqual(['GetItemCommand', 'GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
  const page = await counted('GET', `/api/v1/placements?req_id=${reqId}`);
  expect(page.commands).toEqual(['QueryCommand']);
  expect(page.body.data).toEqual([
    expect.objectContaining({ offer_id: oid, compensation: { amount: 70000, currency: 'GBP', period: 'year' } }),
  ]);
  expect((await counted('GET', `/api/v1/placements/${page.body.data[0].id}`)).commands).toEqual(['GetItemCommand']);
  // A hire without an offer in the service: the candidate's read, then its requisition's, then one transaction.
  const direct = (await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Direct Count', req_id: reqId } })).body.data.id;
  const recorded = await counted('POST', `/api/v1/candidates/${direct}/placement`, {
    start_date: '2027-03-01',
    compensation: { amount: 65000, currency: 'GBP', period: 'year' },
    employment_type: 'contract',
    location: 'York',
  });
  expect(recorded.commands).toEqual(['GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
  // Out of placed: the candidate's read, then its placement's (the move cancels it), then one transaction.
  expect((await counted('POST', '/api/v1/pipeline', { candidate_id: direct, stage: 'onboarding' })).commands).toEqual([
    'GetItemCommand',
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);

  // Many placements: each page is still one Query, filtered or not.
  const at = new Date(Date.now() - 86_400_000).toISOString();
  const many = Array.from({ length: 2_500 }, () =>
    placementItem(t.id, { id: newId(), name: 'Bulk Hire', req_id: newId(), req_title: 'Bulk' }, at),
  );
  expect(await batchPut(many)).toEqual([]);
  for (const q of ['?limit=200', `?limit=200&req_id=${reqId}`, '?limit=50&status=active', `?updated_after=${encodeURIComponent(at)}`]) {
    const first = await counted('GET', `/api/v1/placements${q}`);
    expect(first.commands, q).toEqual(['QueryCommand']);
    if (first.body.next_cursor) {
      const next = await counted('GET', `/api/v1/placements${q}&cursor=${encodeURIComponent(first.body.next_cursor)}`);
      expect(next.commands, q).toEqual(['QueryCommand']);
    }
  }
}, 300_000);

it("console routes cost a small fixed number of calls, the session authorizer's GetItem included", async () => {
  const t = await stack.tenant();
  const admin = await t.user('admin');
  const member = await t.user('recruiter');
  const cookie = await stack.login(admin.email, PASSWORD);
  const counted = async (method: string, path: string, body?: unknown) => {
    sent.length = 0;
    const res = await stack.call(method, path, { body, headers: { Cookie: cookie } });
    expect(res.status, res.text).toBeLessThan(300);
    return [...sent].sort();
  };
  // Authorizer GetItem + the STATS GetItem (counters, thresholds) + 1 stuck Query + 1 requisitions Query.
  expect(await counted('GET', '/api/overview')).toEqual([...Array(2).fill('GetItemCommand'), ...Array(2).fill('QueryCommand')]);
  expect(await counted('GET', '/api/settings/pipeline')).toEqual(['GetItemCommand', 'GetItemCommand']);
  // The save is one transaction (the update and its audit record); the stuck index catches up in
  // the background (stuck-index.test.ts).
  expect(await counted('PUT', '/api/settings/pipeline', { stuck_days: { applied: 2 } })).toEqual([
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // Authorizer GetItem + one Query of the users (listing needs no membership version).
  expect(await counted('GET', '/api/members')).toEqual(['GetItemCommand', 'QueryCommand']);
  // + the version-guarded transaction + a Query of the member's sessions (none here).
  expect(await counted('PATCH', `/api/members/${member.id}`, { role: 'admin' })).toEqual(
    ['GetItemCommand', 'GetItemCommand', 'QueryCommand', 'QueryCommand', 'TransactWriteItemsCommand'].sort(),
  );
});

it('Idempotency-Key adds a PutItem and a TransactWriteItems (the answer saved, its copy-ledger entry, the erasure check) to a write, and a replay is one PutItem', async () => {
  const t = await stack.tenant();
  const token = await t.token(['*']);
  const key = { 'Idempotency-Key': 'calls-1' };
  await stack.call('GET', '/api/v1/pipeline', { token }); // warm the authorizer cache
  const counted = async (method: string, path: string, body: unknown, headers: Record<string, string> = key) => {
    sent.length = 0;
    const res = await stack.call(method, path, { token, body, headers });
    expect(res.status, res.text).toBeLessThan(300);
    return { commands: [...sent], res };
  };
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
    sent.length = 0;
    const res = await stack.call(method, path, { token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return { commands: [...sent].sort(), body: res.body };
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

it('webhook endpoint writes cost a small fixed number of calls; the active count moves inside their transaction', async () => {
  const t = await stack.tenant();
  const cookie = await stack.login((await t.user('admin')).email, PASSWORD);
  const counted = async (method: string, path: string, body?: unknown) => {
    sent.length = 0;
    const res = await stack.call(method, path, { body, headers: { Cookie: cookie } });
    expect(res.status, res.text).toBeLessThan(300);
    return { commands: [...sent], body: res.body };
  };
  const create = (n: number) => counted('POST', '/api/webhooks', { url: `https://hooks.example.com/calls${n}` });
  // The workspace's first counted write finds no count: its transaction is cancelled, one Query of
  // the endpoints and one conditional UpdateItem derive the count, and the transaction runs again.
  const first = await create(1);
  expect(first.commands).toEqual([
    'GetItemCommand',
    'TransactWriteItemsCommand',
    'QueryCommand',
    'UpdateItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // From then on, the authorizer's GetItem and one transaction: no listing, no read.
  const second = await create(2);
  expect(second.commands).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  const id = second.body.webhook.id;
  // Not switching it on or off: the endpoint read and one transaction (the update and its audit record).
  expect((await counted('PATCH', `/api/webhooks/${id}`, { description: 'calls' })).commands).toEqual([
    'GetItemCommand',
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  for (const active of [false, true]) {
    expect((await counted('PATCH', `/api/webhooks/${id}`, { active })).commands).toEqual([
      'GetItemCommand',
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
  }
  expect((await counted('DELETE', `/api/webhooks/${id}`)).commands).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  // Deleting an inactive endpoint: the transaction's condition fails and shows it inactive; one
  // more transaction (the update and its audit record).
  expect((await counted('DELETE', `/api/webhooks/${id}`)).commands).toEqual([
    'GetItemCommand',
    'TransactWriteItemsCommand',
    'TransactWriteItemsCommand',
  ]);
});

it('the audit record costs no call of its own: each audited write stays one transaction (or batch) as before', async () => {
  const t = await stack.tenant();
  const admin = await t.user('admin');
  const cookie = await stack.login(admin.email, PASSWORD);
  const headers = { Cookie: cookie };
  const counted = async (method: string, path: string, body?: unknown, h: Record<string, string> = headers) => {
    sent.length = 0;
    const res = await stack.call(method, path, { body, headers: h });
    expect(res.status, res.text).toBeLessThan(300);
    return { commands: [...sent], body: res.body };
  };
  const AUTH = 'GetItemCommand'; // the session authorizer's read (the local gateway does not cache it)
  // Tokens: create reads the workspace's token lifetimes, then is one transaction (lookup, listing,
  // record); revoke reads the listing, then one transaction.
  const token = await counted('POST', '/api/tokens', { name: 'Audited', scopes: ['candidates:read'] });
  expect(token.commands).toEqual([AUTH, 'GetItemCommand', 'TransactWriteItemsCommand']);
  expect((await counted('DELETE', `/api/tokens/${token.body.data.id}`)).commands).toEqual([
    AUTH,
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // Members: add takes a place of the day's refusal budget, checks the email, writes one
  // transaction and gives the place back; a role change and a removal are the membership read and
  // one version-guarded transaction (then the member's sessions).
  const added = await counted('POST', '/api/members', { email: `audited-${t.slug}@example.com`, role: 'recruiter' });
  expect(added.commands).toEqual([AUTH, 'UpdateItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand', 'UpdateItemCommand']);
  const memberId = added.body.data.member.id;
  expect((await counted('PATCH', `/api/members/${memberId}`, { role: 'admin' })).commands.sort()).toEqual(
    [AUTH, 'GetItemCommand', 'QueryCommand', 'QueryCommand', 'TransactWriteItemsCommand'].sort(),
  );
  // A password reset: the member's read, one transaction, then ending sessions and lockouts.
  const reset = await counted('POST', `/api/members/${memberId}/reset-password`);
  expect(reset.commands.slice(0, 3)).toEqual([AUTH, 'GetItemCommand', 'TransactWriteItemsCommand']);
  expect(reset.commands.filter((c) => c === 'TransactWriteItemsCommand')).toHaveLength(1);
  // The removal and its record are one transaction; `member.access_ended` then records what the
  // removal ended (sessions, tokens), known only once they are ended: a record of its own.
  expect((await counted('DELETE', `/api/members/${memberId}`)).commands.filter((c) => c === 'TransactWriteItemsCommand')).toHaveLength(2);
  // Settings: one transaction.
  expect((await counted('PUT', '/api/settings/pipeline', { stuck_days: { applied: 3 } })).commands).toEqual([
    AUTH,
    'TransactWriteItemsCommand',
  ]);
  // Webhooks: rotate is the read and one transaction; a replay's start is one transaction.
  const hook = await counted('POST', '/api/webhooks', { url: 'https://hooks.example.com/audited' });
  const hookId = hook.body.webhook.id;
  expect((await counted('POST', `/api/webhooks/${hookId}/rotate-secret`, {})).commands).toEqual([
    AUTH,
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // Sign-in: the failure counter, the user, the tenant, then the session and its record in one
  // transaction (and the counter cleared) — as many calls as before, one of them a transaction.
  sent.length = 0;
  const signIn = await stack.call('POST', '/api/session', { body: { email: admin.email, password: PASSWORD } });
  expect(signIn.status).toBe(200);
  expect(sent.filter((c) => c === 'TransactWriteItemsCommand')).toHaveLength(1);
  expect(sent).not.toContain('PutItemCommand');
  const fresh = signIn.headers.get('set-cookie')!.split(';')[0]!;
  // The audit log's first page: one Query, any filter; with two filters at most two. (Its records
  // are written from the intents by the stream consumer, which these tests run by hand.)
  await settleAudit(t.id);
  expect((await counted('GET', '/api/audit')).commands).toEqual([AUTH, 'QueryCommand']);
  expect((await counted('GET', `/api/audit?target=${hookId}`)).commands).toEqual([AUTH, 'QueryCommand']);
  const combined = await counted('GET', `/api/audit?actor=${admin.id}&action=webhook.created`);
  expect(combined.commands.filter((c) => c === 'QueryCommand').length).toBeLessThanOrEqual(2);
  expect(combined.body.data.map((r: { action: string }) => r.action)).toEqual(['webhook.created']);
  // A wrong password: a member's email gets its record, an email that is nobody's the same-sized
  // decoy transaction, so the record does not make a member's failure slower than a stranger's.
  const failed = async (email: string) => {
    sent.length = 0;
    expect((await stack.call('POST', '/api/session', { body: { email, password: 'not the password at all' } })).status).toBe(401);
    return sent.filter((c) => c === 'TransactWriteItemsCommand').length;
  };
  expect(await failed(admin.email)).toBe(1);
  expect(await failed(`nobody-${t.slug}@example.com`)).toBe(1);
  // Sign-out: the authorizer's read and one transaction (the delete and its record).
  expect((await counted('DELETE', '/api/session', undefined, { Cookie: fresh })).commands).toEqual([AUTH, 'TransactWriteItemsCommand']);
});
