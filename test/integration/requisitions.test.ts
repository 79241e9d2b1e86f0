import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { createRequisition } from '../../lib/store/requisitions';

let stack: Stack;
let token: string;
let ids: Record<string, string>;

beforeAll(async () => {
  stack = await startStack();
  const t = await stack.tenant();
  token = await t.token(['*']);
  ids = {};
  for (const [title, status] of [
    ['Open A', 'open'],
    ['Open B', 'open'],
    ['Paused', 'on_hold'],
    ['Open C', 'open'],
    ['Draft', 'draft'],
  ] as const) {
    ids[title] = (await createRequisition(t.id, { title, department: 'Eng', location: 'Remote', job_type: 'direct_hire', status })).id;
  }
});
afterAll(() => stack.close());

describe('GET /api/v1/requisitions', () => {
  it('lists open requisitions by default, newest first, with string counts', async () => {
    const res = await stack.call('GET', '/api/v1/requisitions', { token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.data.map((r: { title: string }) => r.title)).toEqual(['Open C', 'Open B', 'Open A']);
    expect(res.body.data[0]).toEqual({
      id: ids['Open C'],
      title: 'Open C',
      department: 'Eng',
      location: 'Remote',
      job_type: 'direct_hire',
      status: 'open',
      candidate_count: '0',
      offers_pending: '0',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      // Beyond the spec's fields: how full it is, so a list needs no read per row.
      headcount: null,
      hires: 0,
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      // Its team, none named.
      recruiter_id: null,
      hiring_manager_ids: [],
    });
  });

  it('filters by status and honours limit while count stays the total', async () => {
    const held = await stack.call('GET', '/api/v1/requisitions?status=on_hold', { token });
    expect(held.body).toMatchObject({ count: 1, data: [{ title: 'Paused', status: 'on_hold' }] });
    const one = await stack.call('GET', '/api/v1/requisitions?limit=1', { token });
    expect(one.body.count).toBe(3);
    expect(one.body.data).toHaveLength(1);
    const closed = await stack.call('GET', '/api/v1/requisitions?status=closed', { token });
    expect(closed.body).toEqual({ data: [], count: 0 });
  });

  it('counts candidates per requisition as digit strings; offers_pending counts sent offers, not the offer_sent stage', async () => {
    const reqId = ids['Open A']!;
    for (const stage of ['applied', 'offer_sent', 'offer_sent', 'rejected']) {
      const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: `C ${stage}`, req_id: reqId, stage } });
      expect(res.status).toBe(201);
    }
    const res = await stack.call('GET', '/api/v1/requisitions', { token });
    const a = res.body.data.find((r: { id: string }) => r.id === reqId);
    expect(a).toMatchObject({ candidate_count: '4', offers_pending: '0' });
  });

  it.each([
    ['status=archived', /status must be one of open, on_hold, filled, draft, closed/],
    ['limit=0', /limit must be an integer between 1 and 200/],
    ['limit=1000', /limit must be an integer between 1 and 200/],
    ['offset=5', /unknown query field "offset"/],
  ])('answers 400 for ?%s', async (qs, message) => {
    const res = await stack.call('GET', `/api/v1/requisitions?${qs}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });
});
