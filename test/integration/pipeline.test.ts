import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { createRequisition } from '../../lib/store/requisitions';
import * as store from '../../lib/domain/candidate-writes';
import { newId } from '../../lib/ids';
import { setStuckDays } from '../../lib/store/tenants';
import { queryAll, tableName } from '../../lib/store/client';

let stack: Stack;
let token: string;
let tenantId: string;
let reqId: string;

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY - 60_000).toISOString();

beforeAll(async () => {
  stack = await startStack();
  const t = await stack.tenant();
  tenantId = t.id;
  token = await t.token(['*']);
  reqId = (await createRequisition(t.id, { title: 'Designer', status: 'open' })).id;
});
afterAll(() => stack.close());

async function seedCandidate(
  name: string,
  stage: Parameters<typeof store.insertCandidate>[1]['stage'],
  daysInStage: number,
  withReq = true,
) {
  const id = newId();
  await store.insertCandidate(tenantId, {
    id,
    name,
    stage,
    ...(withReq && { req_id: reqId, req_title: 'Designer' }),
    created_at: ago(daysInStage + 1),
    updated_at: ago(daysInStage),
    stage_entered_at: ago(daysInStage),
  });
  return id;
}

describe('GET /api/v1/pipeline', () => {
  it('starts with every stage at zero', async () => {
    const res = await stack.call('GET', '/api/v1/pipeline', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.total_active).toBe(0);
    expect(res.body.data.stuck_candidates).toEqual([]);
    expect(Object.values(res.body.data.stage_counts).every((n) => n === 0)).toBe(true);
    expect(Object.keys(res.body.data.stage_counts)).toEqual(
      expect.arrayContaining(['applied', 'ai_screened', 'interview_scheduled', 'interviewed', 'offer_sent']),
    );
  });

  it('counts per stage, leaves placed and rejected out of total_active, and lists stuck candidates longest first', async () => {
    await seedCandidate('Fresh applicant', 'applied', 1);
    await seedCandidate('Stale applicant', 'applied', 4);
    await seedCandidate('Very stale interview', 'interview_scheduled', 20);
    await seedCandidate('Offer waiting', 'offer_sent', 5);
    await seedCandidate('Placed long ago', 'placed', 90);
    await seedCandidate('Rejected long ago', 'rejected', 90, false);
    const res = await stack.call('GET', '/api/v1/pipeline', { token });
    const data = res.body.data;
    expect(data.stage_counts).toMatchObject({ applied: 2, interview_scheduled: 1, offer_sent: 1, placed: 1, rejected: 1 });
    expect(data.total_active).toBe(4);
    // Longest past its stage's threshold first (the stuck index's order): 13 days, 1 day, just now.
    expect(data.stuck_candidates).toEqual([
      { id: expect.any(String), name: 'Very stale interview', stage: 'interview_scheduled', days_in_stage: 20, req_title: 'Designer' },
      { id: expect.any(String), name: 'Stale applicant', stage: 'applied', days_in_stage: 4, req_title: 'Designer' },
      { id: expect.any(String), name: 'Offer waiting', stage: 'offer_sent', days_in_stage: 5, req_title: 'Designer' },
    ]);
  });

  it('uses the tenant thresholds when set', async () => {
    await setStuckDays(tenantId, { applied: 1, interview_scheduled: 0 });
    const res = await stack.call('GET', '/api/v1/pipeline', { token });
    const names = res.body.data.stuck_candidates.map((c: { name: string }) => c.name);
    // Stuck 3 days ago, then the two that crossed their threshold just now, in the order they did.
    expect(names).toEqual(['Stale applicant', 'Fresh applicant', 'Offer waiting']);
    await setStuckDays(tenantId, {});
  });

  it('refuses query parameters it does not know', async () => {
    const res = await stack.call('GET', '/api/v1/pipeline?verbose=1', { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/unknown query field "verbose"/);
  });
});

describe('POST /api/v1/pipeline', () => {
  it('moves a candidate, updates updated_at, the counters and the stuck clock', async () => {
    const id = await seedCandidate('Mover', 'applied', 10);
    const before = (await stack.call('GET', '/api/v1/pipeline', { token })).body.data;
    const res = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'interviewed' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id, name: 'Mover', stage: 'interviewed', updated_at: expect.any(String) });
    expect(Date.now() - Date.parse(res.body.data.updated_at)).toBeLessThan(60_000);
    const after = (await stack.call('GET', '/api/v1/pipeline', { token })).body.data;
    expect(after.stage_counts.applied).toBe(before.stage_counts.applied - 1);
    expect(after.stage_counts.interviewed).toBe(before.stage_counts.interviewed + 1);
    expect(after.stuck_candidates.map((c: { id: string }) => c.id)).not.toContain(id);
    const listed = await stack.call('GET', '/api/v1/candidates?stage=interviewed', { token });
    expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(id);
  });

  it('accepts rejected as a target and keeps requisition counters exact', async () => {
    const id = await seedCandidate('Offer then reject', 'offer_sent', 1);
    const reqBefore = (await stack.call('GET', '/api/v1/requisitions', { token })).body.data[0];
    const res = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'rejected' } });
    expect(res.body.data.stage).toBe('rejected');
    const reqAfter = (await stack.call('GET', '/api/v1/requisitions', { token })).body.data[0];
    // offers_pending counts sent offers, which a stage move does not change.
    expect(reqAfter.offers_pending).toBe(reqBefore.offers_pending);
    expect(reqAfter.candidate_count).toBe(reqBefore.candidate_count);
  });

  it('treats a move to the current stage as a no-op', async () => {
    const id = await seedCandidate('Stayer', 'ai_screened', 3);
    const before = (await stack.call('GET', '/api/v1/pipeline', { token })).body.data.stage_counts;
    const res = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'ai_screened' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, stage: 'ai_screened' });
    expect(Date.now() - Date.parse(res.body.data.updated_at)).toBeGreaterThan(2 * DAY);
    const after = (await stack.call('GET', '/api/v1/pipeline', { token })).body.data.stage_counts;
    expect(after).toEqual(before);
  });

  it('answers 404 for an unknown candidate and 400 for bad bodies', async () => {
    const missing = await stack.call('POST', '/api/v1/pipeline', {
      token,
      body: { candidate_id: '0192f1a0-0000-7000-8000-00000000beef', stage: 'applied' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'candidate not found', code: 'not_found' });
    for (const [body, message] of [
      [{ stage: 'applied' }, /candidate_id is required/],
      [{ candidate_id: 'nope', stage: 'applied' }, /candidate_id must be a UUID/],
      [{ candidate_id: '0192f1a0-0000-7000-8000-00000000beef' }, /stage is required/],
      [{ candidate_id: '0192f1a0-0000-7000-8000-00000000beef', stage: 'hired' }, /stage must be one of/],
    ] as const) {
      const res = await stack.call('POST', '/api/v1/pipeline', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
  });
});

describe('placements', () => {
  const placementsOf = async () => {
    return queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': `T#${tenantId}`, ':p': 'PLACEMENT#' },
    });
  };

  it('a move to placed, or a create straight into placed, writes one placement record', async () => {
    const before = (await placementsOf()).length;
    const id = await seedCandidate('To be placed', 'onboarding', 2);
    await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'placed' } });
    await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'placed' } }); // no-op
    const created = await stack.call('POST', '/api/v1/candidates', {
      token,
      body: { name: 'Placed at once', stage: 'placed', req_id: reqId },
    });
    expect(created.status).toBe(201);
    const placements = await placementsOf();
    expect(placements).toHaveLength(before + 2);
    expect(placements.map((p) => p.candidate_id)).toEqual(expect.arrayContaining([id, created.body.data.id]));
    expect(placements.find((p) => p.candidate_id === id)).toMatchObject({
      candidate_name: 'To be placed',
      req_id: reqId,
      req_title: 'Designer',
    });
  });
});
