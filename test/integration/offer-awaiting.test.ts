/**
 * GET /api/offers/approvals: each member's list of the offers whose chain waits for their decision,
 * written in the transactions that change the chain's state (asking, deciding, a rejection, a new
 * version, a rescind), with its count; and answered only while the member may read the offer.
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
    ['a1', 'recruiter'],
    ['a2', 'recruiter'],
    ['fin', 'recruiter'],
    ['ceo', 'recruiter'],
    ['hm', 'hiring_manager'],
  ] as const) {
    const u = await tenant.user(role, `${name}-${tenant.slug}@example.com`);
    people[name] = { id: u.id, cookie: await stack.login(u.email, PASSWORD) };
  }
  await setChain([
    { approvers: [people.a1!.id, people.a2!.id], mode: 'any' },
    { approvers: [people.fin!.id, people.ceo!.id], mode: 'all', above: { amount: 100000, currency: 'EUR' } },
  ]);
}, 120_000);
afterAll(() => stack.close());

async function setChain(steps: unknown[]) {
  const res = await stack.call('PUT', '/api/settings/offer-approvals', { headers: { Cookie: people.admin!.cookie }, body: { steps } });
  expect(res.status, res.text).toBe(200);
}

const as = (who: string, body?: unknown) => ({ headers: { Cookie: people[who]!.cookie }, ...(body !== undefined && { body }) });
const decide = async (who: string, id: string, decision: 'approve' | 'reject') => {
  const res = await stack.call('POST', `/api/offers/${id}/approvals`, as(who, { decision }));
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};
const setStatus = async (id: string, status: string, reason?: string) => {
  const res = await stack.call('POST', `/api/v1/offers/${id}/status`, { token, body: { status, ...(reason && { reason }) } });
  expect(res.status, res.text).toBe(200);
};

/** The member's whole list, page by page: the offer ids in order, and the count. */
async function awaiting(who: string, limit = 25): Promise<{ ids: string[]; count: number; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let count = -1;
  let pages = 0;
  do {
    const q = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await stack.call('GET', `/api/offers/approvals${q}`, as(who));
    expect(res.status, res.text).toBe(200);
    pages++;
    count = res.body.count;
    ids.push(...res.body.data.map((e: { offer: { id: string } }) => e.offer.id));
    cursor = res.body.next_cursor ?? undefined;
  } while (cursor);
  return { ids, count, pages };
}

async function pendingOffer(amount = 120000, reqId?: string) {
  const cid = (await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Awaited Person', ...(reqId && { req_id: reqId }) } }))
    .body.data.id;
  const made = await stack.call('POST', `/api/v1/candidates/${cid}/offers`, {
    token,
    body: { compensation: { amount, currency: 'EUR', period: 'year' }, start_date: '2027-01-04' },
  });
  expect(made.status, made.text).toBe(201);
  const id = made.body.data.id as string;
  await setStatus(id, 'pending_approval');
  return { id, cid };
}

/** Each of these members' lists holds exactly `ids` (in any order), with a count to match. */
async function expectLists(who: string[], ids: string[]) {
  for (const w of who) {
    const l = await awaiting(w);
    expect(l.ids.sort(), w).toEqual([...ids].sort());
    expect(l.count, w).toBe(ids.length);
  }
}

describe('the lists follow the chain', () => {
  it('asking puts the offer on the first step’s lists; each decision moves it on; the last approval empties them', async () => {
    const { id, cid } = await pendingOffer();
    await expectLists(['a1', 'a2'], [id]);
    await expectLists(['fin', 'ceo', 'admin'], []);
    const page = await stack.call('GET', '/api/offers/approvals', as('a1'));
    expect(page.body.data[0]).toMatchObject({
      offer: { id, candidate_id: cid, status: 'pending_approval', compensation: { amount: 120000 } },
      candidate: { id: cid, name: 'Awaited Person' },
      requisition: null,
      step: 0,
    });
    await decide('a2', id, 'approve');
    await expectLists(['a1', 'a2'], []);
    await expectLists(['fin', 'ceo'], [id]);
    // All of step 2: the one who approved waits no more; the other still does.
    await decide('fin', id, 'approve');
    await expectLists(['fin'], []);
    await expectLists(['ceo'], [id]);
    expect((await decide('ceo', id, 'approve')).status).toBe('approved');
    await expectLists(['a1', 'a2', 'fin', 'ceo'], []);
  });

  it('a rejection empties the lists; asking again fills them; a rescind empties them', async () => {
    const { id } = await pendingOffer();
    expect((await decide('a1', id, 'reject')).status).toBe('draft');
    await expectLists(['a1', 'a2'], []);
    await setStatus(id, 'pending_approval');
    await expectLists(['a1', 'a2'], [id]);
    await setStatus(id, 'rescinded', 'The role was withdrawn');
    await expectLists(['a1', 'a2'], []);
  });

  it('a change of terms at the second step asks the first step again; below the threshold the second step leaves', async () => {
    const { id } = await pendingOffer();
    await decide('a1', id, 'approve');
    await expectLists(['fin', 'ceo'], [id]);
    const changed = await stack.call('PATCH', `/api/v1/offers/${id}`, {
      token,
      body: { compensation: { amount: 90000, currency: 'EUR', period: 'year' } },
    });
    expect(changed.status, changed.text).toBe(200);
    await expectLists(['fin', 'ceo'], []);
    await expectLists(['a1', 'a2'], [id]);
    // Approved below the threshold (one step), then changed: asked again from the first step.
    expect((await decide('a2', id, 'approve')).status).toBe('approved');
    await expectLists(['a1', 'a2'], []);
    await stack.call('PATCH', `/api/v1/offers/${id}`, { token, body: { start_date: '2027-02-01' } });
    await expectLists(['a1', 'a2'], [id]);
    await setStatus(id, 'rescinded', 'Withdrawn');
    await expectLists(['a1', 'a2'], []);
  });

  it('two all-of approvers deciding at the same moment leave both lists empty and both counts at zero', async () => {
    const { id } = await pendingOffer();
    await decide('a1', id, 'approve');
    const both = await Promise.all(
      ['fin', 'ceo'].map((w) => stack.call('POST', `/api/offers/${id}/approvals`, as(w, { decision: 'approve' }))),
    );
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    await expectLists(['fin', 'ceo'], []);
    expect((await stack.call('GET', `/api/v1/offers/${id}`, { token })).body.data.status).toBe('approved');
  });

  it('pages newest first with a cursor, and the count holds every one', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await pendingOffer()).id);
    const l = await awaiting('a1', 2);
    expect(l.pages).toBe(2);
    expect(l.count).toBe(3);
    expect(l.ids).toEqual([...ids].reverse());
    for (const id of ids) await setStatus(id, 'rescinded', 'Tidy');
    await expectLists(['a1'], []);
  });
});

describe('only offers the member may read', () => {
  it('a hiring manager approver sees their requisition’s offer, and no longer once off its team', async () => {
    await setChain([{ approvers: [people.hm!.id], mode: 'any' }]);
    try {
      const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Awaited Role' } });
      const reqId = req.body.data.id;
      const team = await stack.call('PATCH', `/api/v1/requisitions/${reqId}`, { token, body: { hiring_manager_ids: [people.hm!.id] } });
      expect(team.status, team.text).toBe(200);
      const { id } = await pendingOffer(120000, reqId);
      const seen = await stack.call('GET', '/api/offers/approvals', as('hm'));
      expect(seen.body.data.map((e: { offer: { id: string } }) => e.offer.id)).toEqual([id]);
      expect(seen.body.data[0].requisition).toEqual({ id: reqId, title: 'Awaited Role' });
      await stack.call('PATCH', `/api/v1/requisitions/${reqId}`, { token, body: { hiring_manager_ids: [] } });
      expect((await stack.call('GET', '/api/offers/approvals', as('hm'))).body.data).toEqual([]);
      // Back on the team, they decide from the list.
      await stack.call('PATCH', `/api/v1/requisitions/${reqId}`, { token, body: { hiring_manager_ids: [people.hm!.id] } });
      expect((await decide('hm', id, 'approve')).status).toBe('approved');
      await expectLists(['hm'], []);
    } finally {
      await setChain([
        { approvers: [people.a1!.id, people.a2!.id], mode: 'any' },
        { approvers: [people.fin!.id, people.ceo!.id], mode: 'all', above: { amount: 100000, currency: 'EUR' } },
      ]);
    }
  });

  it('an approver taken out of the chain, made an interviewer, or deactivated, sees none of it', async () => {
    const { id } = await pendingOffer();
    await expectLists(['a2'], [id]);
    // The chain in force no longer names a2 at that step: the entry is not answered.
    await setChain([{ approvers: [people.a1!.id], mode: 'any' }]);
    expect((await stack.call('GET', '/api/offers/approvals', as('a2'))).body.data).toEqual([]);
    await setChain([
      { approvers: [people.a1!.id, people.a2!.id], mode: 'any' },
      { approvers: [people.fin!.id, people.ceo!.id], mode: 'all', above: { amount: 100000, currency: 'EUR' } },
    ]);
    const u = await tenant.user('recruiter', `gone-${tenant.slug}@example.com`);
    const cookie = await stack.login(u.email, PASSWORD);
    await setChain([{ approvers: [people.a1!.id, u.id], mode: 'any' }]);
    const { id: other } = await pendingOffer();
    const mine = await stack.call('GET', '/api/offers/approvals', { headers: { Cookie: cookie } });
    expect(mine.body.data.map((e: { offer: { id: string } }) => e.offer.id)).toEqual([other]);
    const demoted = await stack.call('PATCH', `/api/members/${u.id}`, as('admin', { role: 'interviewer' }));
    expect(demoted.status, demoted.text).toBe(200);
    const cookie2 = await stack.login(u.email, PASSWORD);
    const asInterviewer = await stack.call('GET', '/api/offers/approvals', { headers: { Cookie: cookie2 } });
    expect(asInterviewer.status).toBe(200);
    expect(asInterviewer.body).toMatchObject({ data: [], count: 0 });
    expect((await stack.call('POST', `/api/members/${u.id}/deactivate`, as('admin'))).status).toBe(200);
    expect((await stack.call('GET', '/api/offers/approvals', { headers: { Cookie: cookie2 } })).status).toBe(401);
    for (const o of [id, other]) await setStatus(o, 'rescinded', 'Tidy');
    await setChain([
      { approvers: [people.a1!.id, people.a2!.id], mode: 'any' },
      { approvers: [people.fin!.id, people.ceo!.id], mode: 'all', above: { amount: 100000, currency: 'EUR' } },
    ]);
  });

  it("another workspace's members never see this workspace's offers, and its cursors are refused here", async () => {
    const { id } = await pendingOffer();
    const other = await stack.tenant();
    const admin = await other.user('admin', `admin-${other.slug}@example.com`);
    const cookie = await stack.login(admin.email, PASSWORD);
    const theirs = await stack.call('GET', '/api/offers/approvals', { headers: { Cookie: cookie } });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ data: [], count: 0, next_cursor: null });
    const ours = await stack.call('GET', '/api/offers/approvals?limit=1', as('a1'));
    expect(ours.body.data.map((e: { offer: { id: string } }) => e.offer.id)).toEqual([id]);
    const { id: second } = await pendingOffer();
    const page = await stack.call('GET', '/api/offers/approvals?limit=1', as('a1'));
    expect(page.body.next_cursor).toEqual(expect.any(String));
    const foreign = await stack.call('GET', `/api/offers/approvals?cursor=${encodeURIComponent(page.body.next_cursor)}`, {
      headers: { Cookie: cookie },
    });
    expect(foreign.status).toBe(400);
    // Another member's cursor is not this member's either.
    const notMine = await stack.call('GET', `/api/offers/approvals?cursor=${encodeURIComponent(page.body.next_cursor)}`, as('a2'));
    expect(notMine.status).toBe(400);
    for (const o of [id, second]) await setStatus(o, 'rescinded', 'Tidy');
  });
});
