/**
 * DynamoDB calls of the hiring routes: requisitions, offers and their approvals, placements. A
 * write is a read or two and one transaction; a page of offers awaiting a member, or of
 * placements among thousands, stays a fixed number of calls.
 */
import { expect, it } from 'vitest';
import { PASSWORD } from '../../helpers/stack';
import { batchPut } from '../../../lib/store/batch';
import { placementItem } from '../../../lib/store/candidates';
import { newId } from '../../../lib/ids';
import { countCalls, stack, useCallsFixture } from './fixture';

useCallsFixture();

it('requisition routes: each write is at most one read and one transaction or conditional write; one read with its history is one Query', async () => {
  const t = await stack.tenant();
  const token = await t.token(['*']);
  const counted = (method: string, path: string, body?: unknown) => countCalls(method, path, { token, body });
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
  const counted = (method: string, path: string, body?: unknown) => countCalls(method, path, { token, body });
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
  const counted = (path: string, body?: unknown) => countCalls(body ? 'POST' : 'GET', path, { headers: { Cookie: cookie }, body });
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
  const counted = (method: string, path: string, body?: unknown) => countCalls(method, path, { token, body });
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
