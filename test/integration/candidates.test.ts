import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { createRequisition } from '../../lib/store/requisitions';

let stack: Stack;
let token: string;
let reqId: string;

beforeAll(async () => {
  stack = await startStack();
  const t = await stack.tenant();
  token = await t.token(['*']);
  reqId = (await createRequisition(t.id, { title: 'Backend Engineer', status: 'open' })).id;
});
afterAll(() => stack.close());

const create = (body: unknown) => stack.call('POST', '/api/v1/candidates', { token, body });

describe('POST /api/v1/candidates', () => {
  it('creates a candidate in applied by default and answers 201 with the create shape', async () => {
    const res = await create({ name: '  Ada Lovelace ', email: 'ada@example.com', phone: '+44 20 7946 0000' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', stage: 'applied', req_id: null });
    expect(res.body.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Date(res.body.data.created_at).toISOString()).toBe(res.body.data.created_at);
  });

  it('assigns a requisition, copies its title and accepts an initial stage', async () => {
    const res = await create({ name: 'Grace Hopper', req_id: reqId, stage: 'interviewed' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ stage: 'interviewed', req_id: reqId, req_title: 'Backend Engineer' });
  });

  it('answers 400 on req_id for a req_id that is not in the tenant', async () => {
    const res = await create({ name: 'X', req_id: '0192f1a0-0000-7000-8000-00000000dead' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'req_id names no requisition in this workspace', code: 'invalid_field', field: 'req_id' });
  });

  it.each([
    [{}, /name is required/],
    [{ name: '' }, /name must not be empty/],
    [{ name: '   ' }, /name must not be empty/],
    [{ name: 42 }, /name must be a string/],
    [{ name: 'x'.repeat(201) }, /name must be at most 200/],
    [{ name: 'A', email: 'not-an-email' }, /email/],
    [{ name: 'A', phone: 'call me' }, /phone/],
    [{ name: 'A', stage: 'hired' }, /stage must be one of/],
    [{ name: 'A', req_id: 'abc' }, /req_id must be a UUID/],
    [{ name: 'A', resume_url: 'javascript:alert(1)' }, /resume_url/],
    [{ name: 'A', nickname: 'B' }, /unknown body field "nickname"/],
    [[], /body must be a JSON object/],
    ['text', /body must be a JSON object/],
  ])('answers 400 naming the field for %j', async (body, message) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('answers 400 for malformed JSON and 415 for a non-JSON content type', async () => {
    const bad = await stack.call('POST', '/api/v1/candidates', {
      token,
      rawBody: '{"name":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'request body is not valid JSON', code: 'invalid_request' });
    const form = await stack.call('POST', '/api/v1/candidates', {
      token,
      rawBody: 'name=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body.error).toMatch(/application\/json/);
  });
});

describe('GET /api/v1/candidates', () => {
  let ids: string[];
  beforeAll(async () => {
    ids = [];
    for (const [i, stage] of (['applied', 'applied', 'ai_screened', 'offer_sent', 'rejected'] as const).entries()) {
      const res = await create({ name: `List ${i}`, stage, ...(i % 2 === 0 && { req_id: reqId }) });
      ids.push(res.body.data.id);
    }
  });

  it('lists newest first with every field and an exact total count', async () => {
    const res = await stack.call('GET', '/api/v1/candidates', { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 7, offset: 0, limit: 50 });
    expect(res.body.data).toHaveLength(7);
    expect(res.body.data.slice(0, 5).map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
    expect(Object.keys(res.body.data[0]).sort()).toEqual([
      'created_at',
      'email',
      'id',
      'interview_progress',
      'name',
      'person_id',
      'phone',
      'rejection',
      'req_id',
      'req_title',
      'resume_url',
      'source',
      'stage',
      'stage_entered_at',
      'updated_at',
    ]);
    expect(res.body.data[0].interview_progress).toEqual({ interviews: 0, scorecards_expected: 0, scorecards: 0 });
    // Created through the token API.
    expect(res.body.data[0].source).toBe('api');
  });

  it('pages with limit and offset while count stays the total', async () => {
    const all = (await stack.call('GET', '/api/v1/candidates', { token })).body.data.map((c: { id: string }) => c.id);
    const page = await stack.call('GET', '/api/v1/candidates?limit=2&offset=3', { token });
    expect(page.body).toMatchObject({ count: 7, offset: 3, limit: 2 });
    expect(page.body.data.map((c: { id: string }) => c.id)).toEqual(all.slice(3, 5));
    const past = await stack.call('GET', '/api/v1/candidates?offset=7', { token });
    expect(past.body).toMatchObject({ data: [], count: 7 });
  });

  it('filters by stage with the stage count', async () => {
    const res = await stack.call('GET', '/api/v1/candidates?stage=applied', { token });
    expect(res.body.count).toBe(3);
    expect(res.body.data).toHaveLength(3);
    expect(res.body.data.every((c: { stage: string }) => c.stage === 'applied')).toBe(true);
  });

  it('filters by requisition, and by requisition and stage, with exact counts', async () => {
    const byReq = await stack.call('GET', `/api/v1/candidates?req_id=${reqId}`, { token });
    expect(byReq.body.count).toBe(4);
    expect(byReq.body.data.every((c: { req_id: string }) => c.req_id === reqId)).toBe(true);
    const both = await stack.call('GET', `/api/v1/candidates?req_id=${reqId}&stage=applied&limit=1&offset=0`, { token });
    expect(both.body.count).toBe(1);
    expect(both.body.data).toHaveLength(1);
    expect(both.body.data[0]).toMatchObject({ stage: 'applied', req_id: reqId });
    const skipped = await stack.call('GET', `/api/v1/candidates?req_id=${reqId}&stage=applied&offset=1`, { token });
    expect(skipped.body.data).toEqual([]);
  });

  it('answers 404 for a req_id filter outside the tenant', async () => {
    const res = await stack.call('GET', '/api/v1/candidates?req_id=0192f1a0-0000-7000-8000-00000000dead', { token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'requisition not found', code: 'not_found', field: 'req_id' });
  });

  it.each([
    ['stage=rejected', /stage must be one of/],
    ['stage=hired', /stage must be one of/],
    ['limit=0', /limit must be an integer between 1 and 200/],
    ['limit=201', /limit must be an integer between 1 and 200/],
    ['limit=-5', /limit must be an integer between 1 and 200/],
    ['limit=2.5', /limit must be an integer between 1 and 200/],
    ['limit=abc', /limit must be an integer between 1 and 200/],
    ['offset=-1', /offset must be an integer between 0 and 10000/],
    ['offset=10001', /offset must be an integer between 0 and 10000/],
    ['req_id=123', /req_id must be a UUID/],
    ['limit=5&limit=6', /limit must be given at most once/],
    ['sort=name', /unknown query field "sort"/],
  ])('answers 400 for ?%s', async (qs, message) => {
    const res = await stack.call('GET', `/api/v1/candidates?${qs}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });
});
