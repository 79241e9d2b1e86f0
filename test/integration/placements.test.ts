/**
 * Placements: the record a move into `placed` writes, read through GET /api/v1/placements and
 * /placements/{id}: from an accepted offer (its version and terms) and the requisition's team, or
 * without an offer; the list's filters, sync feed and cursor; scopes, roles and workspace
 * isolation; and two accepted offers racing for a requisition's last headcount.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { backfillChangeIndex } from '../../dev/backfill';
import { newId } from '../../lib/ids';
import { ddb, tableName } from '../../lib/store/client';
import { keys } from '../../lib/store/table';
import { settleAudit } from '../helpers/audit';
import { scanTable } from '../helpers/scan';
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

const TERMS = {
  compensation: { amount: 91500.5, currency: 'EUR', period: 'year' },
  start_date: '2027-01-04',
  employment_type: 'direct_hire',
  location: 'Berlin',
};

async function requisition(headcount: number, team = true) {
  const res = await stack.call('POST', '/api/v1/requisitions', {
    token,
    body: { title: 'Platform Engineer', headcount, ...(team && { recruiter_id: recruiter.id, hiring_manager_ids: [manager.id] }) },
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function candidate(reqId: string) {
  const n = Math.random().toString(36).slice(2, 8);
  const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: `Hire ${n}`, req_id: reqId, stage: 'onboarding' } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

const status = (id: string, s: string) => stack.call('POST', `/api/v1/offers/${id}/status`, { token, body: { status: s } });

/** A candidate with an accepted offer (no approval chain: the offer is approved by its status). */
async function accepted(reqId: string) {
  const cid = await candidate(reqId);
  const offer = await stack.call('POST', `/api/v1/candidates/${cid}/offers`, { token, body: TERMS });
  expect(offer.status).toBe(201);
  const oid = offer.body.data.id as string;
  for (const s of ['pending_approval', 'approved', 'sent', 'accepted']) expect((await status(oid, s)).status).toBe(200);
  return { cid, oid };
}

const place = (cid: string) => stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: cid, stage: 'placed' } });
const list = (query = '', t = token) => stack.call('GET', `/api/v1/placements${query}`, { token: t });

describe('the placement record', () => {
  it("a hire with an accepted offer records the offer's version and terms and the requisition's team", async () => {
    const reqId = await requisition(3);
    const { cid, oid } = await accepted(reqId);
    expect((await place(cid)).status).toBe(200);
    const page = await list(`?req_id=${reqId}`);
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(1);
    const p = page.body.data[0];
    expect(p).toEqual({
      id: expect.any(String),
      candidate_id: cid,
      candidate_name: expect.stringMatching(/^Hire /),
      person_id: expect.any(String),
      req_id: reqId,
      req_title: 'Platform Engineer',
      status: 'active',
      offer_id: oid,
      offer_version: 1,
      start_date: '2027-01-04',
      end_date: null,
      compensation: { amount: 91500.5, currency: 'EUR', period: 'year' },
      employment_type: 'direct_hire',
      location: 'Berlin',
      recruiter_id: recruiter.id,
      hiring_manager_ids: [manager.id],
      source: null,
      hired_at: expect.any(String),
      cancelled_at: null,
      cancel_reason: null,
      created_at: p.hired_at,
      updated_at: p.hired_at,
    });
    const one = await stack.call('GET', `/api/v1/placements/${p.id}`, { token });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(p);
  });

  it('a hire without an offer in the service records no offer and no compensation', async () => {
    const reqId = await requisition(2, false);
    const cid = await candidate(reqId);
    expect((await place(cid)).status).toBe(200);
    const [p] = (await list(`?req_id=${reqId}`)).body.data;
    expect(p).toMatchObject({
      candidate_id: cid,
      offer_id: null,
      offer_version: null,
      compensation: null,
      hiring_manager_ids: [],
      recruiter_id: null,
    });
  });

  it('a hire that fills its requisition: filled, with its one placement', async () => {
    const reqId = await requisition(1);
    const { cid } = await accepted(reqId);
    expect((await place(cid)).status).toBe(200);
    expect((await stack.call('GET', `/api/v1/requisitions/${reqId}`, { token })).body.data).toMatchObject({ status: 'filled', hires: 1 });
    expect((await list(`?req_id=${reqId}`)).body.data).toHaveLength(1);
  });
});

describe('changing and cancelling a placement', () => {
  const patch = (id: string, body: unknown) => stack.call('PATCH', `/api/v1/placements/${id}`, { token, body });
  const cancel = (id: string, body: unknown) => stack.call('POST', `/api/v1/placements/${id}/cancel`, { token, body });

  it('PATCH changes the dates, refuses an end before the start, and moves the placement to the end of the feed', async () => {
    const reqId = await requisition(3);
    const { cid } = await accepted(reqId);
    expect((await place(cid)).status).toBe(200);
    const [p] = (await list(`?req_id=${reqId}`)).body.data;
    const changed = await patch(p.id, { start_date: '2027-02-01', end_date: '2027-12-31' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data).toMatchObject({ start_date: '2027-02-01', end_date: '2027-12-31' });
    expect(changed.body.data.updated_at > p.updated_at).toBe(true);
    const bad = await patch(p.id, { end_date: '2027-01-01' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('end_date');
    expect((await patch(p.id, { end_date: null })).body.data.end_date).toBeNull();
    const synced = await list(`?req_id=${reqId}&updated_after=${encodeURIComponent(changed.body.data.updated_at)}`);
    expect(synced.body.data.map((x: { id: string }) => x.id)).toEqual([p.id]);
  });

  it('cancelling the hire that filled its requisition reopens it with the reason, and the headcount takes another hire', async () => {
    const reqId = await requisition(1);
    const { cid } = await accepted(reqId);
    expect((await place(cid)).status).toBe(200);
    const [p] = (await list(`?req_id=${reqId}`)).body.data;
    const done = await cancel(p.id, { reason: 'Took another job before starting' });
    expect(done.status, done.text).toBe(200);
    expect(done.body.data).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Took another job before starting',
      cancelled_at: expect.any(String),
    });
    const req = await stack.call('GET', `/api/v1/requisitions/${reqId}`, { token });
    expect(req.body.data).toMatchObject({ status: 'open', hires: 0 });
    expect(req.body.data.status_history.at(-1)).toMatchObject({
      from: 'filled',
      to: 'open',
      reason: 'placement cancelled: Took another job before starting',
    });
    expect((await stack.call('GET', `/api/v1/candidates/${cid}`, { token })).body.data.stage).toBe('onboarding');
    // The admin sees why in the audit log too.
    await settleAudit();
    const admin = await stack.login((await tenant.user('admin')).email, PASSWORD);
    const audit = await stack.call('GET', `/api/audit?target=${p.id}`, { headers: { Cookie: admin } });
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.data[0]).toMatchObject({
      action: 'placement.cancelled',
      changes: expect.arrayContaining([{ field: 'cancel_reason', before: null, after: 'Took another job before starting' }]),
    });
    // Again: nothing more to do, the same answer.
    const again = await cancel(p.id, { reason: 'Another reason' });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(done.body.data);
    // Its dates are kept as they were; the headcount takes the next hire.
    expect((await patch(p.id, { start_date: '2027-05-01' })).body).toMatchObject({ code: 'placement_cancelled' });
    expect((await place(await candidate(reqId))).status).toBe(200);
    expect((await list(`?req_id=${reqId}&status=active`)).body.data).toHaveLength(1);
    expect((await list(`?req_id=${reqId}&status=cancelled`)).body.data.map((x: { id: string }) => x.id)).toEqual([p.id]);
  });

  it('cancelling needs a reason; a token without offers:write cannot; another workspace gets a 404', async () => {
    const reqId = await requisition(2, false);
    const cid = await candidate(reqId);
    expect((await place(cid)).status).toBe(200);
    const [p] = (await list(`?req_id=${reqId}`)).body.data;
    const none = await cancel(p.id, {});
    expect(none.status).toBe(400);
    expect(none.body.field).toBe('reason');
    const reader = await tenant.token(['offers:read']);
    expect((await stack.call('POST', `/api/v1/placements/${p.id}/cancel`, { token: reader, body: { reason: 'x' } })).status).toBe(403);
    const foreign = await other.token(['*']);
    expect((await stack.call('POST', `/api/v1/placements/${p.id}/cancel`, { token: foreign, body: { reason: 'x' } })).status).toBe(404);
    expect((await stack.call('PATCH', `/api/v1/placements/${p.id}`, { token: foreign, body: { start_date: '2027-01-01' } })).status).toBe(
      404,
    );
    expect((await stack.call('GET', `/api/v1/placements/${p.id}`, { token })).body.data.status).toBe('active');
  });
});

describe('erasure', () => {
  it("removes the placement's amount and name, keeps its ids, dates, status and currency; the full-table scan finds the amount nowhere", async () => {
    const reqId = await requisition(3);
    const amount = Number(`7${String(Date.now()).slice(-5)}.43`);
    const cid = await candidate(reqId);
    const offer = await stack.call('POST', `/api/v1/candidates/${cid}/offers`, {
      token,
      body: { ...TERMS, compensation: { amount, currency: 'EUR', period: 'year' } },
    });
    for (const s of ['pending_approval', 'approved', 'sent', 'accepted']) expect((await status(offer.body.data.id, s)).status).toBe(200);
    expect((await place(cid)).status).toBe(200);
    const [before] = (await list(`?req_id=${reqId}`)).body.data;
    expect(before.compensation.amount).toBe(amount);
    const held = async () => JSON.stringify(await scanTable({ TableName: tableName() })).includes(String(amount));
    expect(await held()).toBe(true);
    const erased = await stack.call('POST', `/api/v1/candidates/${cid}/erase`, { token });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.data.scrubbed.placements).toBeGreaterThanOrEqual(1);
    expect(await held()).toBe(false);
    const after = (await stack.call('GET', `/api/v1/placements/${before.id}`, { token })).body.data;
    expect(after).toEqual({
      ...before,
      candidate_name: '',
      compensation: { amount: null, currency: 'EUR', period: 'year' },
      erased_at: expect.any(String),
    });
  });
});

describe('the list', () => {
  it('pages with a cursor bound to its filters, syncs by updated_after, and filters by status', async () => {
    const reqId = await requisition(5, false);
    const before = new Date().toISOString();
    for (let i = 0; i < 3; i++) expect((await place(await candidate(reqId))).status).toBe(200);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(`?req_id=${reqId}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((p: { id: string }) => p.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
    // Oldest change first, and only those changed at or after updated_after.
    const synced = await list(`?updated_after=${encodeURIComponent(before)}&req_id=${reqId}`);
    expect(synced.body.data.map((p: { id: string }) => p.id)).toEqual(seen);
    expect((await list(`?updated_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body.data).toEqual([]);
    expect((await list(`?req_id=${reqId}&status=cancelled`)).body.data).toEqual([]);
    expect((await list(`?req_id=${reqId}&status=active`)).body.data).toHaveLength(3);
    // A cursor made for one filter is refused for another.
    const first = await list(`?req_id=${reqId}&limit=1`);
    const wrong = await list(`?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ field: 'cursor' });
  });

  it('lists a placement written before placements were listed once the backfill gave it its index keys', async () => {
    const id = newId();
    const reqId = newId();
    const at = '2025-06-02T09:00:00.000Z';
    // As a move into placed wrote it then: no status, no updated_at, no index keys.
    const old = {
      ...keys.placement(tenant.id, id),
      type: 'placement',
      id,
      tenant_id: tenant.id,
      candidate_id: newId(),
      candidate_name: 'Old Hire',
      req_id: reqId,
      req_title: 'Old',
      placed_at: at,
      created_at: at,
    };
    await ddb.send(new PutCommand({ TableName: tableName(), Item: old }));
    expect((await list(`?req_id=${reqId}`)).body.data).toEqual([]);
    expect(await backfillChangeIndex()).toBeGreaterThanOrEqual(1);
    const [p] = (await list(`?req_id=${reqId}&status=active`)).body.data;
    expect(p).toMatchObject({ id, status: 'active', hired_at: at, updated_at: at, compensation: null });
    expect(await backfillChangeIndex()).toBe(0);
  });

  it('refuses bad filters with the field named', async () => {
    for (const [q, field] of [
      ['?status=gone', 'status'],
      ['?req_id=nope', 'req_id'],
      ['?updated_after=yesterday', 'updated_after'],
      ['?limit=500', 'limit'],
    ]) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.body.field, q).toBe(field);
    }
  });
});

describe('who reads placements', () => {
  it('another workspace sees none of them; a token needs offers:read; interviewers are refused, a hiring manager off the team sees none', async () => {
    const reqId = await requisition(2, false);
    const cid = await candidate(reqId);
    expect((await place(cid)).status).toBe(200);
    const [p] = (await list(`?req_id=${reqId}`)).body.data;
    const foreign = await other.token(['*']);
    expect((await stack.call('GET', `/api/v1/placements/${p.id}`, { token: foreign })).status).toBe(404);
    expect((await list('', foreign)).body.data).toEqual([]);
    const narrow = await tenant.token(['candidates:read']);
    expect((await list('', narrow)).status).toBe(403);
    expect((await stack.call('GET', `/api/v1/placements/${p.id}`, { token: narrow })).status).toBe(403);
    expect((await list('', await tenant.token(['offers:read']))).status).toBe(200);
    const recruiterCookie = await stack.login(recruiter.email, PASSWORD);
    expect((await stack.call('GET', `/api/placements/${p.id}`, { headers: { Cookie: recruiterCookie } })).status).toBe(200);
    const interviewer = await stack.login((await tenant.user('interviewer')).email, PASSWORD);
    expect((await stack.call('GET', '/api/placements', { headers: { Cookie: interviewer } })).status).toBe(403);
    const offTeam = await stack.login((await tenant.user('hiring_manager')).email, PASSWORD);
    expect((await stack.call('GET', '/api/placements', { headers: { Cookie: offTeam } })).body.data).toEqual([]);
    expect((await stack.call('GET', `/api/placements/${p.id}`, { headers: { Cookie: offTeam } })).status).toBe(404);
  });
});

describe('the last headcount', () => {
  it('two accepted offers racing for it: one placement, the other refused with 409 headcount_reached', async () => {
    const reqId = await requisition(1);
    const [a, b] = [await accepted(reqId), await accepted(reqId)];
    const results = await Promise.all([place(a.cid), place(b.cid)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body).toMatchObject({ code: 'headcount_reached', error: expect.stringContaining('1 of 1 hires') });
    const placements = (await list(`?req_id=${reqId}`)).body.data;
    expect(placements).toHaveLength(1);
    const winner = results[0]!.status === 200 ? a : b;
    expect(placements[0]).toMatchObject({ candidate_id: winner.cid, offer_id: winner.oid });
    expect((await stack.call('GET', `/api/v1/requisitions/${reqId}`, { token })).body.data).toMatchObject({ status: 'filled', hires: 1 });
  });
});
