/**
 * Offers through the token API and the console's twins: drafting one per candidate, the versions
 * (changed in place until approval is asked for, then one per change, old ones as they were), the
 * status matrix with its 409 naming the allowed statuses, the reasons, scopes, roles, workspace
 * isolation, erasure, and two drafts racing for one candidate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let other: TestTenant;
let token: string;
let memberCookie: string;
let reqId: string;

beforeAll(async () => {
  stack = await startStack();
  [tenant, other] = [await stack.tenant(), await stack.tenant()];
  token = await tenant.token(['*']);
  memberCookie = await stack.login((await tenant.user('recruiter')).email, PASSWORD);
  const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Backend Engineer', headcount: 2 } });
  reqId = req.body.data.id;
});
afterAll(() => stack.close());

const TERMS = {
  compensation: { amount: 91500.5, currency: 'EUR', period: 'year' },
  start_date: '2027-01-04',
  employment_type: 'direct_hire',
  location: 'Berlin',
  bonus: '10% target bonus',
  note: 'Counter-offer expected',
};

async function candidate(t = token) {
  const n = Math.random().toString(36).slice(2, 8);
  const res = await stack.call('POST', '/api/v1/candidates', {
    token: t,
    body: { name: `Offer ${n}`, email: `offer-${n}@example.com`, req_id: reqId },
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}
const draft = (cid: string, body: unknown = TERMS, t = token) => stack.call('POST', `/api/v1/candidates/${cid}/offers`, { token: t, body });
const get = (id: string, t = token) => stack.call('GET', `/api/v1/offers/${id}`, { token: t });
const patch = (id: string, body: unknown, t = token) => stack.call('PATCH', `/api/v1/offers/${id}`, { token: t, body });
const status = (id: string, body: unknown, t = token) => stack.call('POST', `/api/v1/offers/${id}/status`, { token: t, body });

describe('drafting and reading an offer', () => {
  it("drafts an offer on the candidate, readable with its first version and in the candidate's list", async () => {
    const cid = await candidate();
    const res = await draft(cid);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      candidate_id: cid,
      req_id: reqId,
      status: 'draft',
      version: 1,
      compensation: { amount: 91500.5, currency: 'EUR', period: 'year' },
      bonus: '10% target bonus',
      equity: null,
      start_date: '2027-01-04',
      expires_at: null,
      employment_type: 'direct_hire',
      location: 'Berlin',
      note: 'Counter-offer expected',
      reason: null,
      requested_at: null,
      approval_round_at: null,
      sent_at: null,
      created_at: expect.any(String),
      updated_at: res.body.data.created_at,
    });
    const one = await get(res.body.data.id);
    expect(one.status).toBe(200);
    expect(one.body.data.versions).toEqual([
      {
        version: 1,
        compensation: TERMS.compensation,
        bonus: TERMS.bonus,
        equity: null,
        start_date: TERMS.start_date,
        expires_at: null,
        employment_type: 'direct_hire',
        location: 'Berlin',
        note: TERMS.note,
        created_at: res.body.data.created_at,
      },
    ]);
    const list = await stack.call('GET', `/api/v1/candidates/${cid}/offers`, { token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([res.body.data.id]);
  });

  it.each([
    [{ ...TERMS, compensation: { amount: 1, currency: 'EURO', period: 'year' } }, 'compensation.currency'],
    [{ ...TERMS, compensation: { amount: 1, currency: 'XYZ', period: 'year' } }, 'compensation.currency'],
    [{ ...TERMS, compensation: { amount: 0, currency: 'EUR', period: 'year' } }, 'compensation.amount'],
    [{ ...TERMS, compensation: { amount: 1.005, currency: 'EUR', period: 'year' } }, 'compensation.amount'],
    [{ ...TERMS, compensation: { amount: 1, currency: 'EUR', period: 'week' } }, 'compensation.period'],
    [{ ...TERMS, start_date: '2027-02-30' }, 'start_date'],
    [{ ...TERMS, employment_type: 'freelance' }, 'employment_type'],
    [{ start_date: '2027-01-04' }, 'compensation'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await draft(await candidate(), body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_field', field });
  });

  it('a second open offer for the candidate is a 409 naming the first; an outcome frees the slot', async () => {
    const cid = await candidate();
    const first = (await draft(cid)).body.data.id;
    const second = await draft(cid);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'offer_open' });
    expect(second.body.error).toContain(first);
    expect((await status(first, { status: 'rescinded', reason: 'Role re-scoped' })).status).toBe(200);
    expect((await draft(cid)).status).toBe(201);
    expect((await stack.call('GET', `/api/v1/candidates/${cid}/offers`, { token })).body.data).toHaveLength(2);
  });

  it('two drafts at once for one candidate: exactly one is made, the other is a 409 offer_open', async () => {
    const cid = await candidate();
    const results = await Promise.all([draft(cid), draft(cid), draft(cid)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'offer_open')).toBe(true);
    expect((await stack.call('GET', `/api/v1/candidates/${cid}/offers`, { token })).body.data).toHaveLength(1);
  });

  it('an unknown candidate or offer is a 404', async () => {
    const missing = '0192f1a0-0000-7000-8000-00000000dead';
    expect((await draft(missing)).body).toMatchObject({ code: 'not_found', error: 'candidate not found' });
    expect((await get(missing)).body).toMatchObject({ code: 'not_found', error: 'offer not found' });
    expect((await stack.call('GET', `/api/v1/candidates/${missing}/offers`, { token })).status).toBe(404);
  });
});

describe('versions and statuses', () => {
  it('changes a draft in place until approval is asked for; then each change is a new version and the old ones stay', async () => {
    const id = (await draft(await candidate())).body.data.id;
    const inPlace = await patch(id, { compensation: { amount: 95000, currency: 'EUR', period: 'year' } });
    expect(inPlace.body.data).toMatchObject({ version: 1, compensation: { amount: 95000 } });
    expect((await get(id)).body.data.versions).toHaveLength(1);

    const asked = await status(id, { status: 'pending_approval' });
    expect(asked.body.data).toMatchObject({ status: 'pending_approval', requested_at: expect.any(String) });
    expect((await status(id, { status: 'approved' })).body.data.status).toBe('approved');

    // A change to an approved offer makes version 2 and asks for approval again.
    const changed = await patch(id, { start_date: '2027-02-01', note: null });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ version: 2, status: 'pending_approval', start_date: '2027-02-01', note: null });
    const versions = (await get(id)).body.data.versions;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(versions[0]).toMatchObject({ start_date: '2027-01-04', compensation: { amount: 95000 }, note: TERMS.note });
    expect(versions[1]).toMatchObject({ start_date: '2027-02-01', compensation: { amount: 95000 }, note: null });

    // The same terms again change nothing.
    expect((await patch(id, { start_date: '2027-02-01' })).body.data.version).toBe(2);
  });

  it('walks the matrix to accepted; a refused change names the allowed statuses; a sent offer is locked', async () => {
    const id = (await draft(await candidate())).body.data.id;
    const early = await status(id, { status: 'sent' });
    expect(early.status).toBe(409);
    expect(early.body).toEqual({
      error: 'an offer cannot go from draft to sent; from draft it may move to pending_approval or rescinded',
      code: 'invalid_transition',
      field: 'status',
      allowed: ['pending_approval', 'rescinded'],
    });
    for (const s of ['pending_approval', 'approved', 'sent']) expect((await status(id, { status: s })).body.data.status).toBe(s);
    const locked = await patch(id, { location: 'Remote' });
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe('offer_locked');
    const noReason = await status(id, { status: 'declined' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.field).toBe('reason');
    const expired = await status(id, { status: 'expired' });
    expect(expired.status).toBe(400);
    expect(expired.body.field).toBe('status');
    const accepted = await status(id, { status: 'accepted' });
    expect(accepted.body.data).toMatchObject({ status: 'accepted', sent_at: expect.any(String) });
    const after = await status(id, { status: 'rescinded', reason: 'x' });
    expect(after.body).toMatchObject({ code: 'invalid_transition', allowed: [] });
    // The same status again is a no-op.
    expect((await status(id, { status: 'accepted' })).status).toBe(200);
  });

  it('the candidate follows the offer: sent moves them to offer_sent, accepted to offer_accepted, by the caller', async () => {
    const cid = await candidate();
    const id = (await draft(cid)).body.data.id;
    const stageOf = async () => (await stack.call('GET', `/api/v1/candidates/${cid}`, { token })).body.data;
    for (const s of ['pending_approval', 'approved']) await status(id, { status: s });
    expect((await stageOf()).stage).toBe('applied');
    await status(id, { status: 'sent' });
    expect((await stageOf()).stage).toBe('offer_sent');
    await status(id, { status: 'accepted' });
    const after = await stageOf();
    expect(after.stage).toBe('offer_accepted');
    expect(after.stage_history.slice(-2).map((h: { stage: string }) => h.stage)).toEqual(['offer_sent', 'offer_accepted']);
  });

  it('a declined offer leaves the candidate where they are', async () => {
    const cid = await candidate();
    const id = (await draft(cid)).body.data.id;
    for (const s of ['pending_approval', 'approved', 'sent']) await status(id, { status: s });
    await status(id, { status: 'declined', reason: 'Chose another company' });
    expect((await stack.call('GET', `/api/v1/candidates/${cid}`, { token })).body.data.stage).toBe('offer_sent');
  });

  it('offers_pending counts offers in sent, not candidates in the offer_sent stage', async () => {
    const req = (await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Pending Count', headcount: 3 } })).body.data;
    const pending = async () => (await stack.call('GET', `/api/v1/requisitions/${req.id}`, { token })).body.data.offers_pending;
    const make = async (name: string) =>
      (await stack.call('POST', '/api/v1/candidates', { token, body: { name, req_id: req.id } })).body.data.id as string;
    const moved = await make('Moved By Hand');
    expect((await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: moved, stage: 'offer_sent' } })).status).toBe(200);
    expect(await pending()).toBe('0');
    const [a, b] = [await make('Offer A'), await make('Offer B')];
    const [oa, ob] = [(await draft(a)).body.data.id, (await draft(b)).body.data.id];
    for (const s of ['pending_approval', 'approved']) await Promise.all([status(oa, { status: s }), status(ob, { status: s })]);
    expect(await pending()).toBe('0');
    await Promise.all([status(oa, { status: 'sent' }), status(ob, { status: 'sent' })]);
    expect(await pending()).toBe('2');
    // The same status again changes nothing, so counts nothing.
    expect((await status(oa, { status: 'sent' })).status).toBe(200);
    expect(await pending()).toBe('2');
    expect((await status(oa, { status: 'declined', reason: 'Chose another company' })).status).toBe(200);
    expect(await pending()).toBe('1');
    expect((await status(ob, { status: 'accepted' })).status).toBe(200);
    expect(await pending()).toBe('0');
  });

  it('offer_required: off by default; on, a move into offer_sent needs an approved or sent offer (409 offer_required)', async () => {
    const t = await stack.tenant();
    const tk = await t.token(['*']);
    const admin = await stack.login((await t.user('admin')).email, PASSWORD);
    const req = (await stack.call('POST', '/api/v1/requisitions', { token: tk, body: { title: 'Gated', headcount: 3 } })).body.data;
    const make = async (name: string) =>
      (await stack.call('POST', '/api/v1/candidates', { token: tk, body: { name, req_id: req.id } })).body.data.id as string;
    const move = (cid: string) => stack.call('POST', '/api/v1/pipeline', { token: tk, body: { candidate_id: cid, stage: 'offer_sent' } });
    const settings = () => stack.call('GET', '/api/settings/pipeline', { headers: { Cookie: admin } });
    expect((await settings()).body.data.offer_required).toBe(false);
    // Off: the contract's move, with no offer at all.
    expect((await move(await make('Ungated'))).status).toBe(200);
    const put = await stack.call('PUT', '/api/settings/pipeline', {
      headers: { Cookie: admin },
      body: { stuck_days: {}, offer_required: true },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data.offer_required).toBe(true);
    expect((await settings()).body.data.offer_required).toBe(true);
    const none = await make('No Offer');
    const refused = await move(none);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'offer_required', field: 'stage' });
    expect((await stack.call('GET', `/api/v1/candidates/${none}`, { token: tk })).body.data.stage).toBe('applied');
    // Other stages are not gated; an unknown candidate is still a 404.
    expect((await stack.call('POST', '/api/v1/pipeline', { token: tk, body: { candidate_id: none, stage: 'interviewed' } })).status).toBe(
      200,
    );
    expect((await move('01890000-0000-7000-8000-000000000000')).status).toBe(404);
    // A draft is not enough; an approved offer is.
    const cid = await make('Approved Offer');
    const oid = (await draft(cid, TERMS, tk)).body.data.id;
    expect((await move(cid)).body.code).toBe('offer_required');
    for (const s of ['pending_approval', 'approved']) expect((await status(oid, { status: s }, tk)).status).toBe(200);
    expect((await move(cid)).status).toBe(200);
    // Sending the offer moves its candidate whatever the setting.
    const sent = await make('Sent Offer');
    const sid = (await draft(sent, TERMS, tk)).body.data.id;
    for (const s of ['pending_approval', 'approved', 'sent']) await status(sid, { status: s }, tk);
    expect((await stack.call('GET', `/api/v1/candidates/${sent}`, { token: tk })).body.data.stage).toBe('offer_sent');
    expect((await move(sent)).status).toBe(200);
    // Turned off again, the contract's move is back.
    await stack.call('PUT', '/api/settings/pipeline', { headers: { Cookie: admin }, body: { stuck_days: {}, offer_required: false } });
    expect((await move(none)).status).toBe(200);
  });

  it('an offer past its expires_at is not sent', async () => {
    const id = (await draft(await candidate(), { ...TERMS, expires_at: '2020-01-01T00:00:00Z' })).body.data.id;
    await status(id, { status: 'pending_approval' });
    await status(id, { status: 'approved' });
    const res = await status(id, { status: 'sent' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', field: 'expires_at' });
  });
});

describe('who reaches offers', () => {
  it('needs offers:read to read and offers:write to write; candidates scopes are not enough', async () => {
    const cid = await candidate();
    const id = (await draft(cid)).body.data.id;
    const candidatesOnly = await tenant.token(['candidates:read', 'candidates:write']);
    expect((await get(id, candidatesOnly)).body.code).toBe('missing_scope');
    // Under /candidates/{id}, which candidates:read reaches: the authorizer's policy denies it by name.
    expect((await stack.call('GET', `/api/v1/candidates/${cid}/offers`, { token: candidatesOnly })).body.code).toBe('missing_scope');
    expect((await draft(cid, TERMS, candidatesOnly)).body.code).toBe('missing_scope');
    const reader = await tenant.token(['offers:read']);
    expect((await get(id, reader)).status).toBe(200);
    expect((await patch(id, { location: 'Paris' }, reader)).body.code).toBe('missing_scope');
    expect((await status(id, { status: 'rescinded', reason: 'x' }, reader)).body.code).toBe('missing_scope');
  });

  it("another workspace's offers and candidates are not found", async () => {
    const cid = await candidate();
    const id = (await draft(cid)).body.data.id;
    const theirs = await other.token(['*']);
    expect((await get(id, theirs)).status).toBe(404);
    expect((await patch(id, { location: 'Paris' }, theirs)).status).toBe(404);
    expect((await status(id, { status: 'pending_approval' }, theirs)).status).toBe(404);
    expect((await draft(cid, TERMS, theirs)).status).toBe(404);
    expect((await get(id)).body.data.status).toBe('draft');
  });

  it('a member (a recruiter) drafts, reads and moves offers in the console', async () => {
    const cid = await candidate();
    const as = { headers: { Cookie: memberCookie } };
    const made = await stack.call('POST', `/api/candidates/${cid}/offers`, { ...as, body: TERMS });
    expect(made.status).toBe(201);
    const read = await stack.call('GET', `/api/offers/${made.body.data.id}`, as);
    expect(read.body.data.compensation.amount).toBe(91500.5);
    expect((await stack.call('GET', `/api/candidates/${cid}/offers`, as)).body.data).toHaveLength(1);
    const moved = await stack.call('POST', `/api/offers/${made.body.data.id}/status`, { ...as, body: { status: 'pending_approval' } });
    expect(moved.body.data.status).toBe('pending_approval');
  });

  it('never logs an amount, a bonus or a note', async () => {
    const cid = await candidate();
    const id = (
      await draft(cid, { ...TERMS, compensation: { amount: 123456.78, currency: 'EUR', period: 'year' }, note: 'secret-note-x1' })
    ).body.data.id;
    await patch(id, { bonus: 'secret-bonus-x2' });
    const logs = stack.logs.join('\n');
    for (const v of ['123456.78', 'secret-note-x1', 'secret-bonus-x2']) expect(logs).not.toContain(v);
  });
});

describe('an erased candidate', () => {
  it('gets no new offer', async () => {
    const cid = await candidate();
    expect((await stack.call('POST', `/api/v1/candidates/${cid}/erase`, { token })).status).toBe(200);
    const res = await draft(cid);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('candidate_erased');
  });
});
