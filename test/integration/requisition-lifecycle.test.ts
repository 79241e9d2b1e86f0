/**
 * The requisition lifecycle through the token API: create, read with history and ETag, edit with
 * If-Match, the status matrix, the filled rule and the candidate guards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
});
afterAll(() => stack.close());

const create = async (body: Record<string, unknown>, t = token) => stack.call('POST', '/api/v1/requisitions', { token: t, body });
const status = async (id: string, body: Record<string, unknown>, t = token) =>
  stack.call('POST', `/api/v1/requisitions/${id}/status`, { token: t, body });
const get = async (id: string, t = token) => stack.call('GET', `/api/v1/requisitions/${id}`, { token: t });

describe('POST /api/v1/requisitions', () => {
  it('creates an open requisition with headcount 1 by default, in the list shape plus headcount, hires and updated_at', async () => {
    const res = await create({ title: 'Platform Engineer', department: 'Eng', location: 'Berlin', job_type: 'direct_hire' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      title: 'Platform Engineer',
      department: 'Eng',
      location: 'Berlin',
      job_type: 'direct_hire',
      status: 'open',
      candidate_count: '0',
      offers_pending: '0',
      headcount: 1,
      hires: 0,
      created_at: expect.any(String),
      updated_at: res.body.data.created_at,
      recruiter_id: null,
      hiring_manager_ids: [],
    });
    const list = await stack.call('GET', '/api/v1/requisitions', { token });
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(res.body.data.id);
    // The spec's fields, plus how full it is (headcount, hires) and its last change: the
    // console's list shows hires / headcount without a read per row.
    expect(Object.keys(list.body.data[0]).sort()).toEqual([
      'candidate_count',
      'created_at',
      'department',
      'headcount',
      'hires',
      'hiring_manager_ids',
      'id',
      'job_type',
      'location',
      'offers_pending',
      'recruiter_id',
      'status',
      'title',
      'updated_at',
    ]);
  });

  it('creates a draft', async () => {
    const res = await create({ title: 'Later', status: 'draft', headcount: 4 });
    expect(res.body.data).toMatchObject({ status: 'draft', headcount: 4, department: null, job_type: null });
  });

  it.each([
    [
      { title: 'X', job_type: 'freelance' },
      'job_type',
      /job_type must be one of direct_hire, contract, contract_to_hire, temporary, internship/,
    ],
    [{ title: 'X', headcount: 0 }, 'headcount', /headcount must be a whole number between 1 and 1000/],
    [{ title: 'X', headcount: 1001 }, 'headcount', /between 1 and 1000/],
    [{ title: 'X', headcount: 1.5 }, 'headcount', /whole number/],
    [{ title: 'X', status: 'closed' }, 'status', /status must be one of draft, open/],
    [{ department: 'Eng' }, 'title', /title is required/],
    [{ title: '  ' }, 'title', /title/],
  ])('refuses %j with 400 naming %s', async (body, field, message) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_field', field });
    expect(res.body.error).toMatch(message);
  });

  it('replays an Idempotency-Key: the same answer, one requisition', async () => {
    const headers = { 'Idempotency-Key': `req-${Math.random()}` };
    const a = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Once' }, headers });
    const b = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Once' }, headers });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body).toEqual(a.body);
    const other = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Twice' }, headers });
    expect(other.status).toBe(422);
  });
});

describe('scopes and isolation', () => {
  it('needs requisitions:write to write; requisitions:read reads one', async () => {
    const reader = await tenant.token(['requisitions:read']);
    const id = (await create({ title: 'Scoped' })).body.data.id;
    expect((await create({ title: 'Nope' }, reader)).status).toBe(403);
    expect((await stack.call('PATCH', `/api/v1/requisitions/${id}`, { token: reader, body: { title: 'Nope' } })).status).toBe(403);
    expect((await status(id, { status: 'filled' }, reader)).status).toBe(403);
    expect((await get(id, reader)).status).toBe(200);
    const writer = await tenant.token(['requisitions:write']);
    expect((await create({ title: 'Writer' }, writer)).status).toBe(201);
    expect((await get(id, await tenant.token(['candidates:read']))).status).toBe(403);
  });

  it("answers 404 for another tenant's requisition on every route", async () => {
    const id = (await create({ title: 'Mine' })).body.data.id;
    const other = await stack.tenant();
    const theirs = await other.token(['*']);
    expect((await get(id, theirs)).status).toBe(404);
    expect((await stack.call('PATCH', `/api/v1/requisitions/${id}`, { token: theirs, body: { title: 'Stolen' } })).status).toBe(404);
    expect((await status(id, { status: 'closed', reason: 'x' }, theirs)).status).toBe(404);
    expect((await get(id)).body.data.title).toBe('Mine');
  });
});

describe('GET and PATCH /api/v1/requisitions/{id}', () => {
  it('reads the requisition with its history and an ETag; If-Match guards edits', async () => {
    const id = (await create({ title: 'Editable', headcount: 2 })).body.data.id;
    const first = await get(id);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toBe('"1"');
    expect(first.body.data.status_history).toEqual([
      {
        from: null,
        to: 'open',
        reason: null,
        actor: { type: 'token', id: expect.any(String), name: 'test' },
        at: first.body.data.created_at,
      },
    ]);
    const patched = await stack.call('PATCH', `/api/v1/requisitions/${id}`, {
      token,
      body: { title: 'Edited', job_type: 'contract', headcount: 3 },
      headers: { 'If-Match': etag },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ title: 'Edited', job_type: 'contract', headcount: 3 });
    expect(patched.headers.get('etag')).toBe('"2"');
    const stale = await stack.call('PATCH', `/api/v1/requisitions/${id}`, {
      token,
      body: { title: 'Lost' },
      headers: { 'If-Match': etag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 'stale_requisition' });
    expect((await get(id)).body.data.title).toBe('Edited');
    const cleared = await stack.call('PATCH', `/api/v1/requisitions/${id}`, { token, body: { job_type: null } });
    expect(cleared.body.data.job_type).toBeNull();
  });

  it('refuses a headcount below the hires with 409', async () => {
    const id = (await create({ title: 'Two seats', headcount: 2 })).body.data.id;
    const c = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Hired', req_id: id, stage: 'onboarding' } });
    expect((await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: c.body.data.id, stage: 'placed' } })).status).toBe(
      200,
    );
    expect((await get(id)).body.data.hires).toBe(1);
    const res = await stack.call('PATCH', `/api/v1/requisitions/${id}`, { token, body: { headcount: 0 } });
    expect(res.status).toBe(400);
    const ok = await stack.call('PATCH', `/api/v1/requisitions/${id}`, { token, body: { headcount: 1 } });
    expect(ok.status).toBe(200);
    // hires 1 now equals the headcount 1: a second hire is refused, a lower headcount too.
    await stack.call('PATCH', `/api/v1/requisitions/${id}`, { token, body: { headcount: 3 } });
    const c2 = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Second', req_id: id, stage: 'placed' } });
    expect(c2.status).toBe(201);
    const below = await stack.call('PATCH', `/api/v1/requisitions/${id}`, { token, body: { headcount: 1 } });
    expect(below.status).toBe(409);
    expect(below.body).toMatchObject({ code: 'headcount_below_hires', field: 'headcount' });
  });
});

describe('POST /api/v1/requisitions/{id}/status', () => {
  it('follows the matrix, records every change with its actor, and refuses the rest with allowed', async () => {
    const id = (await create({ title: 'Lifecycle', status: 'draft' })).body.data.id;
    const hold = await status(id, { status: 'on_hold', reason: 'x' });
    expect(hold.status).toBe(409);
    expect(hold.body).toEqual({
      error: 'a requisition cannot go from draft to on_hold; from draft it may move to open or closed',
      code: 'invalid_transition',
      field: 'status',
      allowed: ['open', 'closed'],
    });
    expect((await status(id, { status: 'open' })).body.data.status).toBe('open');
    const noop = await status(id, { status: 'open' });
    expect(noop.status).toBe(200);
    const missing = await status(id, { status: 'on_hold' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ field: 'reason' });
    expect((await status(id, { status: 'on_hold', reason: 'Budget review' })).status).toBe(200);
    const stale = await status(id, { status: 'closed', reason: 'Cancelled', from_status: 'open' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'stale_status', field: 'from_status' });
    expect((await status(id, { status: 'closed', reason: 'Cancelled', from_status: 'on_hold' })).status).toBe(200);
    const back = await status(id, { status: 'draft' });
    expect(back.body).toMatchObject({ code: 'invalid_transition', allowed: ['open'] });
    const detail = (await get(id)).body.data;
    expect(detail.status_history.map((h: { from: string | null; to: string; reason: string | null }) => [h.from, h.to, h.reason])).toEqual([
      [null, 'draft', null],
      ['draft', 'open', null],
      ['open', 'on_hold', 'Budget review'],
      ['on_hold', 'closed', 'Cancelled'],
    ]);
    expect((await get(id)).headers.get('etag')).toBe('"4"');
    const closedList = await stack.call('GET', '/api/v1/requisitions?status=closed', { token });
    expect(closedList.body.data.map((r: { id: string }) => r.id)).toContain(id);
  });

  it('fills an open requisition by itself on the hire that reaches its headcount, and never reopens it', async () => {
    const id = (await create({ title: 'Two hires', headcount: 2 })).body.data.id;
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C'])
      ids.push(
        (await stack.call('POST', '/api/v1/candidates', { token, body: { name, req_id: id, stage: 'offer_accepted' } })).body.data.id,
      );
    const move = (cid: string, stage: string) => stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: cid, stage } });
    expect((await move(ids[0]!, 'placed')).status).toBe(200);
    expect((await get(id)).body.data).toMatchObject({ status: 'open', hires: 1 });
    expect((await move(ids[1]!, 'placed')).status).toBe(200);
    const filled = (await get(id)).body.data;
    expect(filled).toMatchObject({ status: 'filled', hires: 2 });
    expect(filled.status_history.at(-1)).toMatchObject({ from: 'open', to: 'filled', reason: null, actor: { type: 'system' } });
    const third = await move(ids[2]!, 'placed');
    expect(third.status).toBe(409);
    expect(third.body.code).toBe('headcount_reached');
    // Out of placed lowers hires but leaves it filled; active candidates keep moving.
    expect((await move(ids[0]!, 'onboarding')).status).toBe(200);
    expect((await get(id)).body.data).toMatchObject({ status: 'filled', hires: 1 });
    expect((await move(ids[2]!, 'onboarding')).status).toBe(200);
    expect((await stack.call('GET', '/api/v1/requisitions?status=filled', { token })).body.data.map((r: { id: string }) => r.id)).toContain(
      id,
    );
  });
});

describe('candidate guards', () => {
  it('adds candidates only to an open requisition; an unknown one is a 400 on req_id', async () => {
    const draft = (await create({ title: 'Not yet', status: 'draft' })).body.data.id;
    const open = (await create({ title: 'Hiring' })).body.data.id;
    const refused = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Early', req_id: draft } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: 'the requisition is draft; candidates can only be added to an open requisition',
      code: 'requisition_not_open',
      field: 'req_id',
    });
    const unknown = await stack.call('POST', '/api/v1/candidates', {
      token,
      body: { name: 'Lost', req_id: '0190a000-0000-7000-8000-000000000000' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ field: 'req_id' });
    const c = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'On time', req_id: open } });
    expect(c.status).toBe(201);
    const moveOnto = await stack.call('PATCH', `/api/v1/candidates/${c.body.data.id}`, { token, body: { req_id: draft } });
    expect(moveOnto.status).toBe(409);
    expect(moveOnto.body.code).toBe('requisition_not_open');
    // On hold: the candidates already there keep moving, and a PATCH naming it again changes nothing.
    expect((await status(open, { status: 'on_hold', reason: 'Pause' })).status).toBe(200);
    expect(
      (await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: c.body.data.id, stage: 'ai_screened' } })).status,
    ).toBe(200);
    expect(
      (await stack.call('PATCH', `/api/v1/candidates/${c.body.data.id}`, { token, body: { req_id: open, name: 'Renamed' } })).status,
    ).toBe(200);
    expect((await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Late', req_id: open } })).body.code).toBe(
      'requisition_not_open',
    );
  });
});
