/**
 * POST /api/v1/candidates/{id}/placement: a hire made without an offer in the service. The
 * candidate moves to placed with the placement, the counters and the automatic `filled` in one
 * transaction; one active placement per candidate; an accepted offer makes its own placement by
 * the move; roles, scopes, workspaces and bad input; two requests at once make one placement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let other: TestTenant;
let token: string;
let recruiter: { id: string; email: string };
let manager: { id: string; email: string };

beforeAll(async () => {
  stack = await startStack();
  [tenant, other] = [await stack.tenant(), await stack.tenant()];
  token = await tenant.token(['*']);
  recruiter = await tenant.user('recruiter');
  manager = await tenant.user('hiring_manager');
});
afterAll(() => stack.close());

const BODY = {
  start_date: '2027-02-01',
  compensation: { amount: 64000, currency: 'GBP', period: 'year' },
  employment_type: 'contract',
  location: 'Leeds',
  end_date: '2027-12-31',
};

async function requisition(headcount: number) {
  const res = await stack.call('POST', '/api/v1/requisitions', {
    token,
    body: { title: 'Data Engineer', headcount, recruiter_id: recruiter.id, hiring_manager_ids: [manager.id] },
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function candidate(reqId: string, stage = 'onboarding') {
  const n = Math.random().toString(36).slice(2, 8);
  const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: `Direct ${n}`, req_id: reqId, stage } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

const placeDirect = (cid: string, body: object = BODY, t = token) =>
  stack.call('POST', `/api/v1/candidates/${cid}/placement`, { token: t, body });
const req = async (id: string) => (await stack.call('GET', `/api/v1/requisitions/${id}`, { token })).body.data;
const cand = async (id: string) => (await stack.call('GET', `/api/v1/candidates/${id}`, { token })).body.data;

describe('a placement without an offer', () => {
  it("moves the candidate to placed with the request's terms and the requisition's team, and counts the hire", async () => {
    const reqId = await requisition(3);
    const cid = await candidate(reqId);
    const res = await placeDirect(cid);
    expect(res.status, res.text).toBe(201);
    const p = res.body.data;
    expect(p).toEqual({
      id: expect.any(String),
      candidate_id: cid,
      candidate_name: expect.stringMatching(/^Direct /),
      person_id: expect.any(String),
      req_id: reqId,
      req_title: 'Data Engineer',
      status: 'active',
      offer_id: null,
      offer_version: null,
      start_date: '2027-02-01',
      end_date: '2027-12-31',
      compensation: { amount: 64000, currency: 'GBP', period: 'year' },
      employment_type: 'contract',
      location: 'Leeds',
      recruiter_id: recruiter.id,
      hiring_manager_ids: [manager.id],
      source: null,
      hired_at: expect.any(String),
      cancelled_at: null,
      cancel_reason: null,
      created_at: p.hired_at,
      updated_at: p.hired_at,
    });
    expect((await stack.call('GET', `/api/v1/placements/${p.id}`, { token })).body.data).toEqual(p);
    expect((await cand(cid)).stage).toBe('placed');
    expect(await req(reqId)).toMatchObject({ hires: 1, status: 'open' });
  });

  it('one per candidate: a second is 409 placement_exists naming the first; once it is cancelled another may be recorded', async () => {
    const reqId = await requisition(3);
    const cid = await candidate(reqId);
    const first = await placeDirect(cid);
    expect(first.status).toBe(201);
    const again = await placeDirect(cid);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'placement_exists', existing_id: first.body.data.id });
    const cancel = await stack.call('POST', `/api/v1/placements/${first.body.data.id}/cancel`, {
      token,
      body: { reason: 'did not start' },
    });
    expect(cancel.status).toBe(200);
    const next = await placeDirect(cid);
    expect(next.status, next.text).toBe(201);
    expect(next.body.data.id).not.toBe(first.body.data.id);
  });

  it('a candidate with an accepted offer is 409 offer_accepted: the move into placed makes that placement', async () => {
    const reqId = await requisition(3);
    const cid = await candidate(reqId, 'interviewed');
    const offer = await stack.call('POST', `/api/v1/candidates/${cid}/offers`, {
      token,
      body: { compensation: { amount: 70000, currency: 'GBP', period: 'year' }, start_date: '2027-02-01' },
    });
    expect(offer.status).toBe(201);
    for (const s of ['pending_approval', 'approved', 'sent', 'accepted']) {
      expect((await stack.call('POST', `/api/v1/offers/${offer.body.data.id}/status`, { token, body: { status: s } })).status).toBe(200);
    }
    const res = await placeDirect(cid);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'offer_accepted', error: expect.stringContaining(offer.body.data.id) });
    expect((await cand(cid)).stage).toBe('offer_accepted');
    expect(await req(reqId)).toMatchObject({ hires: 0 });
  });

  it('the hire that brings the requisition to its headcount fills it; the next is 409 headcount_reached', async () => {
    const reqId = await requisition(1);
    const [a, b] = [await candidate(reqId), await candidate(reqId)];
    expect((await placeDirect(a)).status).toBe(201);
    expect(await req(reqId)).toMatchObject({ hires: 1, status: 'filled' });
    const refused = await placeDirect(b);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('headcount_reached');
    expect((await cand(b)).stage).toBe('onboarding');
  });

  it('two candidates at once for the last headcount: one placement, the other 409 headcount_reached', async () => {
    const reqId = await requisition(1);
    const [a, b] = [await candidate(reqId), await candidate(reqId)];
    const results = await Promise.all([placeDirect(a), placeDirect(b)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('headcount_reached');
    const listed = (await stack.call('GET', `/api/v1/placements?req_id=${reqId}`, { token })).body.data;
    expect(listed).toHaveLength(1);
    expect(await req(reqId)).toMatchObject({ hires: 1, status: 'filled' });
  });

  it('two requests at once for one candidate: one placement, the other 409 placement_exists', async () => {
    const reqId = await requisition(5);
    const cid = await candidate(reqId);
    const results = await Promise.all([placeDirect(cid), placeDirect(cid)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('placement_exists');
    const listed = (await stack.call('GET', `/api/v1/placements?req_id=${reqId}`, { token })).body.data;
    expect(listed).toHaveLength(1);
    expect(await req(reqId)).toMatchObject({ hires: 1 });
  });

  it('refuses bad input with the field named, and changes nothing', async () => {
    const reqId = await requisition(3);
    const cid = await candidate(reqId);
    const { end_date: _end, ...noEnd } = BODY;
    for (const [body, field] of [
      [{ ...BODY, end_date: '2027-01-01' }, 'end_date'],
      [{ ...BODY, start_date: 'soon' }, 'start_date'],
      [{ ...noEnd, compensation: { amount: 1, currency: 'XXQ', period: 'year' } }, 'compensation.currency'],
      [{ ...BODY, employment_type: 'forever' }, 'employment_type'],
      [{ ...BODY, location: undefined }, 'location'],
      [{ ...BODY, offer_id: cid }, 'offer_id'],
    ] as const) {
      const res = await placeDirect(cid, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    expect((await placeDirect('00000000-0000-4000-8000-000000000000', noEnd)).status).toBe(404);
    expect((await cand(cid)).stage).toBe('onboarding');
  });
});

describe('hires count active placements', () => {
  it('a move out of placed cancels the placement with it (hires drops); a move back makes a new one', async () => {
    const reqId = await requisition(1);
    const cid = await candidate(reqId);
    const move = (stage: string) => stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: cid, stage } });
    const active = async () => (await stack.call('GET', `/api/v1/placements?req_id=${reqId}&status=active`, { token })).body.data;
    expect((await move('placed')).status).toBe(200);
    const [first] = await active();
    expect(await req(reqId)).toMatchObject({ hires: 1, status: 'filled' });
    expect((await move('onboarding')).status).toBe(200);
    expect(await req(reqId)).toMatchObject({ hires: 0 });
    expect(await active()).toEqual([]);
    const cancelled = (await stack.call('GET', `/api/v1/placements/${first.id}`, { token })).body.data;
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'the candidate moved from placed to onboarding' });
    expect(cancelled.updated_at > first.updated_at).toBe(true);
    expect((await move('placed')).status).toBe(200);
    const now = await active();
    expect(now).toHaveLength(1);
    expect(now[0].id).not.toBe(first.id);
    expect(await req(reqId)).toMatchObject({ hires: 1 });
  });
});

describe('who records a placement', () => {
  it('recruiters and admins by session; never hiring managers or interviewers; a token needs offers:write; another workspace gets 404', async () => {
    const reqId = await requisition(5);
    for (const role of ['interviewer', 'hiring_manager'] as const) {
      const cid = await candidate(reqId);
      const cookie = await stack.login((await tenant.user(role)).email, PASSWORD);
      const res = await stack.call('POST', `/api/candidates/${cid}/placement`, { headers: { Cookie: cookie }, body: BODY });
      expect(res.status, role).toBe(403);
      expect((await cand(cid)).stage, role).toBe('onboarding');
    }
    const cid = await candidate(reqId);
    expect((await placeDirect(cid, BODY, await tenant.token(['offers:read', 'candidates:write']))).status).toBe(403);
    expect((await placeDirect(cid, BODY, await other.token(['*']))).status).toBe(404);
    expect((await cand(cid)).stage).toBe('onboarding');
    const cookie = await stack.login(recruiter.email, PASSWORD);
    const res = await stack.call('POST', `/api/candidates/${cid}/placement`, { headers: { Cookie: cookie }, body: BODY });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ candidate_id: cid, status: 'active' });
  });
});
