/**
 * Offer approvals through the console's routes: the chain (admins set it), decisions by approvers
 * as themselves (any-of, all-of, in order, a rejection, a change of terms mid-approval, a step
 * above an amount), the status route refusing `approved` while a step applies, and two approvers
 * deciding at the same moment leaving one consistent chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let token: string;
const people: Record<string, { id: string; cookie: string }> = {};

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  for (const [name, role] of [
    ['admin', 'admin'],
    ['hm1', 'recruiter'],
    ['hm2', 'recruiter'],
    ['fin', 'recruiter'],
    ['ceo', 'recruiter'],
    ['outsider', 'recruiter'],
  ] as const) {
    const u = await tenant.user(role, `${name}-${tenant.slug}@example.com`);
    people[name] = { id: u.id, cookie: await stack.login(u.email, PASSWORD) };
  }
  const chain = await stack.call('PUT', '/api/settings/offer-approvals', {
    headers: { Cookie: people.admin!.cookie },
    body: {
      steps: [
        { approvers: [people.hm1!.id, people.hm2!.id], mode: 'any' },
        { approvers: [people.fin!.id, people.ceo!.id], mode: 'all', above: { amount: 100000, currency: 'EUR' } },
      ],
    },
  });
  expect(chain.status, chain.text).toBe(200);
});
afterAll(() => stack.close());

const as = (who: string, body?: unknown) => ({ headers: { Cookie: people[who]!.cookie }, ...(body !== undefined && { body }) });
const decide = (who: string, id: string, decision: 'approve' | 'reject', comment?: string) =>
  stack.call('POST', `/api/offers/${id}/approvals`, as(who, { decision, ...(comment && { comment }) }));

async function pendingOffer(amount = 120000) {
  const n = Math.random().toString(36).slice(2, 8);
  const cid = (await stack.call('POST', '/api/v1/candidates', { token, body: { name: `Approval ${n}` } })).body.data.id;
  const made = await stack.call('POST', `/api/v1/candidates/${cid}/offers`, {
    token,
    body: { compensation: { amount, currency: 'EUR', period: 'year' }, start_date: '2027-01-04' },
  });
  const id = made.body.data.id as string;
  expect((await stack.call('POST', `/api/v1/offers/${id}/status`, { token, body: { status: 'pending_approval' } })).status).toBe(200);
  return id;
}

describe('the approval chain', () => {
  it('only admins set it; any member reads it', async () => {
    const refused = await stack.call('PUT', '/api/settings/offer-approvals', as('hm1', { steps: [] }));
    expect(refused.status).toBe(403);
    const read = await stack.call('GET', '/api/settings/offer-approvals', as('hm1'));
    expect(read.body.data.steps).toHaveLength(2);
    expect(read.body.data.steps[1]).toEqual({
      approvers: [people.fin!.id, people.ceo!.id],
      mode: 'all',
      above: { amount: 100000, currency: 'EUR' },
    });
  });

  it('while a step applies, the status route does not approve (409 approval_required)', async () => {
    const id = await pendingOffer();
    const res = await stack.call('POST', `/api/v1/offers/${id}/status`, { token, body: { status: 'approved' } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'approval_required', field: 'status' });
  });

  it('in order: a later step waits (409), an outsider is refused (403); any-of then all-of approves', async () => {
    const id = await pendingOffer();
    expect((await decide('fin', id, 'approve')).status).toBe(409);
    expect((await decide('outsider', id, 'approve')).status).toBe(403);
    const first = await decide('hm2', id, 'approve', 'Within the band');
    expect(first.body.data).toMatchObject({
      status: 'pending_approval',
      approvals: [{ step: 0, user_id: people.hm2!.id, comment: 'Within the band' }],
    });
    expect((await decide('fin', id, 'approve')).body.data.status).toBe('pending_approval');
    expect((await decide('ceo', id, 'approve')).body.data.status).toBe('approved');
    const offer = (await stack.call('GET', `/api/v1/offers/${id}`, { token })).body.data;
    expect(offer.status).toBe('approved');
    expect(offer.approvals.map((a: { step: number }) => a.step)).toEqual([0, 1, 1]);
  });

  it('two all-of approvers at the same moment: both land, in one chain, and the offer is approved', async () => {
    const id = await pendingOffer();
    expect((await decide('hm1', id, 'approve')).status).toBe(200);
    const both = await Promise.all([decide('fin', id, 'approve'), decide('ceo', id, 'approve')]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const offer = (await stack.call('GET', `/api/v1/offers/${id}`, { token })).body.data;
    expect(offer.status).toBe('approved');
    expect(offer.approvals).toHaveLength(3);
    expect(new Set(offer.approvals.slice(1).map((a: { user_id: string }) => a.user_id))).toEqual(new Set([people.fin!.id, people.ceo!.id]));
  });

  it('a rejection sends the offer back to draft', async () => {
    const id = await pendingOffer();
    expect((await decide('hm1', id, 'reject', 'Above the band')).body.data.status).toBe('draft');
    expect((await stack.call('GET', `/api/v1/offers/${id}`, { token })).body.data.status).toBe('draft');
  });

  it('after a rejection, asking again on the same terms starts a new round the chain decides', async () => {
    const id = await pendingOffer(90000);
    expect((await decide('hm1', id, 'reject', 'Wait for the budget')).body.data.status).toBe('draft');
    const asked = await stack.call('POST', `/api/v1/offers/${id}/status`, { token, body: { status: 'pending_approval' } });
    expect(asked.body.data, asked.text).toMatchObject({ status: 'pending_approval', version: 1 });
    // The earlier rejection belongs to the earlier round: this approval decides the new one.
    const approved = await decide('hm2', id, 'approve');
    expect(approved.body.data.status, approved.text).toBe('approved');
    expect(approved.body.data.approvals.map((a: { decision: string }) => a.decision)).toEqual(['reject', 'approve']);
  });

  it('a change of terms mid-approval asks the chain again from its first step', async () => {
    const id = await pendingOffer();
    await decide('hm1', id, 'approve');
    const changed = await stack.call('PATCH', `/api/v1/offers/${id}`, { token, body: { start_date: '2027-02-01' } });
    expect(changed.body.data).toMatchObject({ version: 2, status: 'pending_approval' });
    // Step 1 waits again for step 0 on the new version.
    expect((await decide('fin', id, 'approve')).status).toBe(409);
    const again = await decide('hm1', id, 'approve');
    expect(again.body.data.approvals.map((a: { version: number }) => a.version)).toEqual([1, 2]);
  });

  it('below the finance threshold only the first step applies', async () => {
    const id = await pendingOffer(90000);
    expect((await decide('hm1', id, 'approve')).body.data.status).toBe('approved');
  });
});
