/**
 * Tenant isolation: tenant B, holding a `*` token, can neither see nor touch anything of
 * tenant A, and cannot pick a tenant through the request: the tenant comes only from the
 * authorizer context.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGES } from '../../lib/model';
import { startStack, type Stack } from '../helpers/stack';
import { createRequisition } from '../../lib/store/requisitions';
import { insertCandidate } from '../../lib/domain/candidate-writes';
import { newId } from '../../lib/ids';

type Tenant = Awaited<ReturnType<Stack['tenant']>>;

let stack: Stack;
let a: Tenant;
let b: Tenant;
let tokenA: string;
let tokenB: string;
let reqA: string;
/** Every candidate id of tenant A, and A's views before B does anything. */
let candidatesA: string[];
let stuckA: string;
let snapshot: { candidates: unknown; requisitions: unknown; pipeline: unknown; byReq: unknown };

const DAY_MS = 86_400_000;

const get = (path: string, token: string, headers?: Record<string, string>) => stack.call('GET', path, { token, headers });
const viewOf = async (token: string) => ({
  candidates: (await get('/api/v1/candidates?limit=200', token)).body,
  requisitions: (await get('/api/v1/requisitions', token)).body,
  pipeline: stripDays((await get('/api/v1/pipeline', token)).body),
  byReq: (await get(`/api/v1/candidates?req_id=${reqA}&limit=200`, token)).body,
});
/** days_in_stage could tick over midnight between two reads; nothing else may change. */
const stripDays = (body: { data?: { stuck_candidates?: Array<Record<string, unknown>> } }) => ({
  ...body,
  data: body.data && {
    ...body.data,
    stuck_candidates: body.data.stuck_candidates?.map(({ days_in_stage: _d, ...c }) => c),
  },
});

beforeAll(async () => {
  stack = await startStack();
  a = await stack.tenant();
  b = await stack.tenant();
  tokenA = await a.token(['*']);
  tokenB = await b.token(['*']);
  reqA = (await createRequisition(a.id, { title: 'Secret Project Lead', status: 'open' })).id;
  await createRequisition(a.id, { title: 'Paused Role', status: 'on_hold' });
  await createRequisition(a.id, { title: 'Draft Role', status: 'draft' });

  candidatesA = [];
  for (const [i, stage] of (['applied', 'interviewed', 'offer_sent', 'placed', 'rejected'] as const).entries()) {
    const res = await stack.call('POST', '/api/v1/candidates', {
      token: tokenA,
      body: { name: `A Candidate ${i}`, email: `a${i}@a.example`, stage, ...(i % 2 === 0 && { req_id: reqA }) },
    });
    expect(res.status).toBe(201);
    candidatesA.push(res.body.data.id);
  }
  // A candidate that has waited 30 days in `applied`: A's pipeline reports it as stuck.
  const old = new Date(Date.now() - 30 * DAY_MS).toISOString();
  stuckA = newId();
  await insertCandidate(a.id, {
    id: stuckA,
    name: 'A Stuck',
    stage: 'applied',
    req_id: reqA,
    req_title: 'Secret Project Lead',
    created_at: old,
    updated_at: old,
    stage_entered_at: old,
  });
  candidatesA.push(stuckA);

  snapshot = await viewOf(tokenA);
});
afterAll(() => stack.close());

describe('the fixture (so that "B sees nothing" means something)', () => {
  it('A sees its own candidates, requisitions, counts and stuck candidate', async () => {
    const view = snapshot as {
      candidates: { data: Array<{ id: string }>; count: number };
      requisitions: { data: Array<{ id: string }>; count: number };
      pipeline: { data: { stage_counts: Record<string, number>; stuck_candidates: Array<{ id: string }> } };
      byReq: { count: number };
    };
    expect(view.candidates.count).toBe(candidatesA.length);
    expect(view.candidates.data.map((c) => c.id).sort()).toEqual([...candidatesA].sort());
    expect(view.requisitions.count).toBe(1);
    expect(view.requisitions.data.map((r) => r.id)).toEqual([reqA]);
    expect(view.byReq.count).toBe(4);
    expect(view.pipeline.data.stage_counts.applied).toBe(2);
    expect(view.pipeline.data.stuck_candidates.map((c) => c.id)).toContain(stuckA);
  });
});

describe("tenant B cannot read tenant A's data", () => {
  it('GET /candidates: none of A, count 0, for every stage filter too', async () => {
    const all = await get('/api/v1/candidates?limit=200', tokenB);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ data: [], count: 0 });
    for (const stage of STAGES.filter((s) => s !== 'rejected')) {
      const res = await get(`/api/v1/candidates?stage=${stage}&limit=200`, tokenB);
      expect(res.status, stage).toBe(200);
      expect(res.body, stage).toMatchObject({ data: [], count: 0 });
    }
    expect(all.text).not.toContain('A Candidate');
  });

  it("GET /candidates?req_id=<A's requisition> -> 404, with or without a stage", async () => {
    for (const qs of [`req_id=${reqA}`, `req_id=${reqA}&stage=applied`, `req_id=${reqA}&limit=1&offset=1`]) {
      const res = await get(`/api/v1/candidates?${qs}`, tokenB);
      expect(res.status, qs).toBe(404);
      expect(res.body, qs).toEqual({ error: 'requisition not found', code: 'not_found', field: 'req_id' });
    }
  });

  it('GET /requisitions: none of A, count 0, for every status', async () => {
    for (const status of ['open', 'on_hold', 'filled', 'draft', 'closed']) {
      const res = await get(`/api/v1/requisitions?status=${status}`, tokenB);
      expect(res.status, status).toBe(200);
      expect(res.body, status).toEqual({ data: [], count: 0 });
    }
  });

  it('GET /pipeline: all-zero stage counts, nothing active, no stuck candidates', async () => {
    const res = await get('/api/v1/pipeline', tokenB);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      stage_counts: Object.fromEntries(STAGES.map((s) => [s, 0])),
      total_active: 0,
      stuck_candidates: [],
    });
  });
});

describe("tenant B cannot change tenant A's data", () => {
  it("POST /pipeline with A's candidate -> 404, and A's candidate is unchanged", async () => {
    for (const id of candidatesA) {
      const res = await stack.call('POST', '/api/v1/pipeline', { token: tokenB, body: { candidate_id: id, stage: 'onboarding' } });
      expect(res.status, id).toBe(404);
      expect(res.body, id).toEqual({ error: 'candidate not found', code: 'not_found' });
    }
    expect(await viewOf(tokenA)).toEqual(snapshot);
  });

  it("POST /candidates/{id}/erase of A's candidate -> 404, and nothing of A changes", async () => {
    for (const id of candidatesA) {
      const res = await stack.call('POST', `/api/v1/candidates/${id}/erase`, { token: tokenB });
      expect(res.status, id).toBe(404);
      expect(res.body, id).toEqual({ error: 'candidate not found', code: 'not_found' });
    }
    expect(await viewOf(tokenA)).toEqual(snapshot);
  });

  it("POST /candidates with A's req_id -> 400 on req_id, and A's counts are unchanged", async () => {
    const res = await stack.call('POST', '/api/v1/candidates', { token: tokenB, body: { name: 'Intruder', req_id: reqA } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'req_id names no requisition in this workspace', code: 'invalid_field', field: 'req_id' });
    expect(await viewOf(tokenA)).toEqual(snapshot);
    const bView = await get('/api/v1/candidates', tokenB);
    expect(bView.body.count).toBe(0);
  });

  it("B's own writes land in B only", async () => {
    const created = await stack.call('POST', '/api/v1/candidates', { token: tokenB, body: { name: 'B Candidate' } });
    expect(created.status).toBe(201);
    const moved = await stack.call('POST', '/api/v1/pipeline', {
      token: tokenB,
      body: { candidate_id: created.body.data.id, stage: 'interviewed' },
    });
    expect(moved.status).toBe(200);
    expect(await viewOf(tokenA)).toEqual(snapshot);
    // ...and A cannot reach B's candidate either.
    const fromA = await stack.call('POST', '/api/v1/pipeline', {
      token: tokenA,
      body: { candidate_id: created.body.data.id, stage: 'placed' },
    });
    expect(fromA.status).toBe(404);
    const bList = await get('/api/v1/candidates', tokenB);
    expect(bList.body.data.map((c: { id: string }) => c.id)).toEqual([created.body.data.id]);
    expect(bList.body.data[0].stage).toBe('interviewed');
  });
});

describe('the tenant comes only from the authorizer context', () => {
  it.each([['tenantId'], ['tenant_id'], ['tenantSlug'], ['tenant']])(
    'a body field %s is refused as unknown (400) on every POST route',
    async (field) => {
      const create = await stack.call('POST', '/api/v1/candidates', { token: tokenB, body: { name: 'X', [field]: a.id } });
      expect(create.status).toBe(400);
      expect(create.body).toEqual({ error: `unknown body field "${field}"`, code: 'invalid_field', field });
      const move = await stack.call('POST', '/api/v1/pipeline', {
        token: tokenB,
        body: { candidate_id: candidatesA[0], stage: 'placed', [field]: a.id },
      });
      expect(move.status).toBe(400);
      expect(move.body).toEqual({ error: `unknown body field "${field}"`, code: 'invalid_field', field });
      expect(await viewOf(tokenA)).toEqual(snapshot);
    },
  );

  it.each([['tenantId'], ['tenant_id'], ['tenantSlug']])(
    'a query parameter %s is refused as unknown (400) on every GET route',
    async (field) => {
      for (const path of ['/api/v1/candidates', '/api/v1/requisitions', '/api/v1/pipeline']) {
        const res = await get(`${path}?${field}=${a.id}`, tokenB);
        expect(res.status, path).toBe(400);
        expect(res.body, path).toEqual({ error: `unknown query field "${field}"`, code: 'invalid_field', field });
      }
    },
  );

  it("tenant-ish headers are ignored: B still sees only B's data", async () => {
    const headers = {
      'X-Tenant-Id': a.id,
      'X-Tenant-Slug': a.slug,
      'X-Amz-Tenant': a.id,
      'X-Forwarded-Host': `${a.slug}.example.com`,
    };
    const candidates = await get('/api/v1/candidates?limit=200', tokenB, headers);
    expect(candidates.status).toBe(200);
    expect(candidates.body.data.some((c: { id: string }) => candidatesA.includes(c.id))).toBe(false);
    expect(candidates.body.data.every((c: { name: string }) => !c.name.startsWith('A '))).toBe(true);
    const reqs = await get('/api/v1/requisitions', tokenB, headers);
    expect(reqs.body).toEqual({ data: [], count: 0 });
    const byReq = await get(`/api/v1/candidates?req_id=${reqA}`, tokenB, headers);
    expect(byReq.status).toBe(404);
    const pipeline = await get('/api/v1/pipeline', tokenB, headers);
    expect(pipeline.body.data.stuck_candidates).toEqual([]);
    const move = await stack.call('POST', '/api/v1/pipeline', {
      token: tokenB,
      headers,
      body: { candidate_id: candidatesA[0], stage: 'placed' },
    });
    expect(move.status).toBe(404);
    expect(await viewOf(tokenA)).toEqual(snapshot);
  });
});
