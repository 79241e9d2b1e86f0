/**
 * GET and PATCH /api/v1/candidates/{id}: the candidate with its immutable stage history, profile
 * changes with requisition counters moved in the same transaction, and the candidate.updated
 * event (read from the table's stream, as the fan-out reads it).
 */
import { dynamodbEndpoint } from '../helpers/dynamodb-endpoint';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack, type TestTenant, collectEvents } from '../helpers/stack';
import type { WebhookEvent } from '../../lib/webhooks/events';
import { findTokenGrant } from '../../lib/store/tokens';
import { tokenDigest } from '../../lib/auth/token';
import { createRequisition } from '../../lib/store/requisitions';

let stack: Stack;
let t: TestTenant;
let other: TestTenant;
let token: string;
let tokenId: string;
let reqA: string;
let reqB: string;
const events: WebhookEvent[] = [];
let poller: { stop(): Promise<void> };

beforeAll(async () => {
  stack = await startStack({ stream: true });
  t = await stack.tenant();
  other = await stack.tenant();
  token = await t.token(['*']);
  tokenId = (await findTokenGrant(tokenDigest(token)))!.token_id;
  reqA = (await createRequisition(t.id, { title: 'Backend Engineer', status: 'open' })).id;
  reqB = (await createRequisition(t.id, { title: 'Data Engineer', status: 'open' })).id;
  poller = await collectEvents(stack.tableName, dynamodbEndpoint(), events);
});
afterAll(async () => {
  await poller?.stop();
  await stack.close();
});

const create = async (body: Record<string, unknown>, tok = token) => {
  const res = await stack.call('POST', '/api/v1/candidates', { token: tok, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const get = (id: string, tok = token) => stack.call('GET', `/api/v1/candidates/${id}`, { token: tok });
const patch = (id: string, body: unknown, tok = token) => stack.call('PATCH', `/api/v1/candidates/${id}`, { token: tok, body });
const move = (id: string, stage: string, tok = token) =>
  stack.call('POST', '/api/v1/pipeline', { token: tok, body: { candidate_id: id, stage } });
const reqCounts = async () => {
  const res = await stack.call('GET', '/api/v1/requisitions', { token });
  return Object.fromEntries((res.body.data as { id: string; candidate_count: string }[]).map((r) => [r.id, Number(r.candidate_count)]));
};
async function eventsFor(id: string, type: string, n: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = events.filter((e) => e.type === type && e.data.candidateId === id);
    if (found.length >= n || Date.now() > deadline) return found;
    await sleep(100);
  }
}

describe('GET /api/v1/candidates/{id}', () => {
  it('returns the list shape plus one stay for a candidate never moved', async () => {
    const id = await create({ name: 'Ada Lovelace', email: 'ada@example.com', req_id: reqA });
    const res = await get(id);
    expect(res.status).toBe(200);
    const list = await stack.call('GET', '/api/v1/candidates', { token });
    const listed = list.body.data.find((c: { id: string }) => c.id === id);
    const { stage_history, requisition_history, screening, application, ...shape } = res.body.data;
    expect(shape).toEqual(listed);
    expect(requisition_history).toEqual([]);
    // Only an application is screened, and only an application has answers.
    expect(screening).toBeNull();
    expect(application).toBeNull();
    expect(stage_history).toEqual([{ stage: 'applied', from_stage: null, entered_at: listed.created_at, exited_at: null, actor: null }]);
  });

  it('returns every real move oldest first with entered_at/exited_at and the token that moved it', async () => {
    const id = await create({ name: 'Grace Hopper' });
    expect((await move(id, 'ai_screened')).status).toBe(200);
    expect((await move(id, 'ai_screened')).status).toBe(200); // no-op: no history
    expect((await move(id, 'interviewed')).status).toBe(200);
    const res = await get(id);
    expect(res.status).toBe(200);
    const h = res.body.data.stage_history;
    expect(h.map((s: { stage: string }) => s.stage)).toEqual(['applied', 'ai_screened', 'interviewed']);
    expect(h.map((s: { from_stage: string | null }) => s.from_stage)).toEqual([null, 'applied', 'ai_screened']);
    expect(h[0].entered_at).toBe(res.body.data.created_at);
    expect(h[0].exited_at).toBe(h[1].entered_at);
    expect(h[1].exited_at).toBe(h[2].entered_at);
    expect(h[2].exited_at).toBeNull();
    expect(h[2].entered_at).toBe(res.body.data.updated_at);
    expect(h[1].actor).toEqual({ type: 'token', id: tokenId, name: 'test' });
    expect(h[2].actor).toEqual({ type: 'token', id: tokenId, name: 'test' });
  });

  it('writes exactly one history item per move when moves race', async () => {
    const id = await create({ name: 'Racing' });
    const stages = ['ai_screened', 'interview_scheduled', 'interviewed', 'offer_sent', 'rejected'];
    await Promise.all(stages.map((s) => move(id, s)));
    const h = (await get(id)).body.data.stage_history as { stage: string; from_stage: string | null }[];
    expect(h).toHaveLength(6);
    // A chain: each stay starts where the previous one ended.
    for (let i = 1; i < h.length; i++) expect(h[i]!.from_stage).toBe(h[i - 1]!.stage);
    expect(h.at(-1)!.stage).toBe((await get(id)).body.data.stage);
  });

  it("answers 404 for an unknown id and for another tenant's candidate, and 400 for a malformed id", async () => {
    const theirs = await create({ name: 'Other Tenant' }, await other.token(['*']));
    for (const id of [randomUUID(), theirs]) {
      const res = await get(id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'candidate not found', code: 'not_found' });
    }
    const bad = await get('not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/id must be a UUID/);
  });

  it('needs candidates:read', async () => {
    const id = await create({ name: 'Scoped' });
    expect((await get(id, await t.token(['candidates:read']))).status).toBe(200);
    expect((await get(id, await t.token(['candidates:write', 'pipeline:read', 'pipeline:write', 'requisitions:read']))).status).toBe(403);
  });
});

describe('PATCH /api/v1/candidates/{id}', () => {
  it('changes profile fields, clears with null, and answers the list shape', async () => {
    const id = await create({ name: 'Alan Turing', email: 'alan@example.com', phone: '+44 1' + '234' });
    const res = await patch(id, { name: '  Alan M. Turing ', phone: null, resume_url: 'https://cv.example.com/alan.pdf' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      id,
      name: 'Alan M. Turing',
      email: 'alan@example.com',
      phone: null,
      resume_url: 'https://cv.example.com/alan.pdf',
      stage: 'applied',
    });
    expect(res.body.data.updated_at > res.body.data.created_at || res.body.data.updated_at === res.body.data.created_at).toBe(true);
    // The read adds the interview progress and the application, which a PATCH never changes and does not answer.
    const {
      stage_history: _h,
      requisition_history: _r,
      screening: _s,
      application: _a,
      interview_progress,
      ...again
    } = (await get(id)).body.data;
    expect(again).toEqual(res.body.data);
    expect(interview_progress).toEqual({ interviews: 0, scorecards_expected: 0, scorecards: 0 });
    const [e] = await eventsFor(id, 'candidate.updated', 1);
    expect(e!.data).toMatchObject({
      candidateId: id,
      name: 'Alan M. Turing',
      phone: null,
      resumeUrl: 'https://cv.example.com/alan.pdf',
      changed: ['name', 'phone', 'resumeUrl'],
    });
    expect(e!.timestamp).toBe(res.body.data.updated_at);
  });

  it('moves the requisition counters in the same transaction when req_id changes', async () => {
    const id = await create({ name: 'Mover', req_id: reqA, stage: 'offer_sent' });
    const before = await reqCounts();
    const res = await patch(id, { req_id: reqB });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ req_id: reqB, req_title: 'Data Engineer', stage: 'offer_sent' });
    const after = await reqCounts();
    expect(after[reqA]).toBe(before[reqA]! - 1);
    expect(after[reqB]).toBe(before[reqB]! + 1);
    const byReq = await stack.call('GET', `/api/v1/candidates?req_id=${reqB}&stage=offer_sent`, { token });
    expect(byReq.body.data.map((c: { id: string }) => c.id)).toContain(id);
    expect(byReq.body.count).toBe(byReq.body.data.length);
    const off = await patch(id, { req_id: null });
    expect(off.body.data).toMatchObject({ req_id: null, req_title: null });
    expect((await reqCounts())[reqB]).toBe(before[reqB]);
    const gone = await stack.call('GET', `/api/v1/candidates?req_id=${reqB}`, { token });
    expect(gone.body.data.map((c: { id: string }) => c.id)).not.toContain(id);
  });

  it('keeps counters exact when PATCHes and moves race', async () => {
    // A move conditions on the requisition it read too: a racing PATCH must not leave the
    // stage counts on the old requisition.
    for (let round = 0; round < 3; round++) {
      const rid = await create({ name: `Round ${round}`, req_id: reqA });
      const results = await Promise.all([move(rid, 'interviewed'), patch(rid, { req_id: reqB }), move(rid, 'offer_sent')]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    }
    for (const [req, stage] of [
      [reqA, 'interviewed'],
      [reqA, 'offer_sent'],
      [reqB, 'interviewed'],
      [reqB, 'offer_sent'],
    ]) {
      const res = await stack.call('GET', `/api/v1/candidates?req_id=${req}&stage=${stage}&limit=200`, { token });
      expect(res.body.count, `${stage} on ${req === reqA ? 'A' : 'B'}`).toBe(res.body.data.length);
    }
    const id = await create({ name: 'Contended', req_id: reqA });
    const before = await reqCounts();
    const results = await Promise.all([
      patch(id, { req_id: reqB }),
      move(id, 'interviewed'),
      patch(id, { name: 'Contended 2' }),
      move(id, 'offer_sent'),
      patch(id, { email: 'c@example.com' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const c = (await get(id)).body.data;
    expect(c).toMatchObject({ req_id: reqB, name: 'Contended 2', email: 'c@example.com' });
    const after = await reqCounts();
    expect(after[reqA]).toBe(before[reqA]! - 1);
    expect(after[reqB]).toBe(before[reqB]! + 1);
    const inStage = await stack.call('GET', `/api/v1/candidates?req_id=${reqB}&stage=${c.stage}`, { token });
    expect(inStage.body.count).toBe(inStage.body.data.length);
  });

  it('a change to nothing writes nothing and emits no event', async () => {
    const id = await create({ name: 'Same', email: 'same@example.com' });
    const res = await patch(id, { name: 'Same', email: 'same@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.data.updated_at).toBe(res.body.data.created_at);
    await patch(id, { name: 'Changed' });
    const found = await eventsFor(id, 'candidate.updated', 1);
    await sleep(500);
    expect(events.filter((e) => e.type === 'candidate.updated' && e.data.candidateId === id)).toHaveLength(found.length);
    expect(found).toHaveLength(1);
  });

  it("answers 404 for an unknown id, another tenant's candidate, or a requisition not in the tenant", async () => {
    const otherToken = await other.token(['*']);
    const theirs = await create({ name: 'Theirs' }, otherToken);
    for (const id of [randomUUID(), theirs]) {
      const res = await patch(id, { name: 'Hijack' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'candidate not found', code: 'not_found' });
    }
    expect((await get(theirs, otherToken)).body.data.name).toBe('Theirs');
    const theirReq = (await createRequisition(other.id, { title: 'Theirs', status: 'open' })).id;
    const mine = await create({ name: 'Mine' });
    const res = await patch(mine, { req_id: theirReq });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'req_id names no requisition in this workspace', code: 'invalid_field', field: 'req_id' });
  });

  it.each([
    [{}, /at least one of name, email, phone, resume_url, req_id/],
    [{ name: '' }, /name must not be empty/],
    [{ name: null }, /name must be a string/],
    [{ email: 'nope' }, /email must be an email address/],
    [{ phone: 'call me' }, /phone/],
    [{ resume_url: 'javascript:alert(1)' }, /resume_url/],
    [{ req_id: 'abc' }, /req_id must be a UUID/],
    [{ stage: 'placed' }, /unknown body field "stage"/],
    [[], /body must be a JSON object/],
  ])('answers 400 for %j', async (body, message) => {
    const id = await create({ name: 'Valid' });
    const res = await patch(id, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('needs candidates:write', async () => {
    const id = await create({ name: 'Scoped Write' });
    expect((await patch(id, { name: 'ok' }, await t.token(['candidates:write']))).status).toBe(200);
    expect(
      (await patch(id, { name: 'no' }, await t.token(['candidates:read', 'pipeline:read', 'pipeline:write', 'requisitions:read']))).status,
    ).toBe(403);
  });
});

describe('POST /api/v1/pipeline with from_stage (stale-move guard)', () => {
  const guarded = (id: string, from_stage: unknown, stage: string) =>
    stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage, from_stage } });

  it('moves when the candidate is still in from_stage', async () => {
    const id = await create({ name: 'Fresh' });
    const res = await guarded(id, 'applied', 'ai_screened');
    expect(res.status).toBe(200);
    expect(res.body.data.stage).toBe('ai_screened');
  });

  it('answers 409 naming the current stage when it is not, and writes nothing', async () => {
    const id = await create({ name: 'Stale' });
    await move(id, 'interviewed');
    const before = (await get(id)).body.data;
    const res = await guarded(id, 'applied', 'ai_screened');
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/interviewed/);
    expect(res.body.error).toMatch(/applied/);
    // Even a move to the stage it is already in is refused: the caller's view was stale.
    expect((await guarded(id, 'applied', 'interviewed')).status).toBe(409);
    expect((await get(id)).body.data).toEqual(before);
    await sleep(300);
    expect(events.filter((e) => e.type === 'candidate.stage_changed' && e.data.candidateId === id)).toHaveLength(1);
  });

  it('of two clients racing from the same stage, exactly one moves; the other gets 409', async () => {
    const id = await create({ name: 'Race' });
    const results = await Promise.all([guarded(id, 'applied', 'ai_screened'), guarded(id, 'applied', 'rejected')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const h = (await get(id)).body.data.stage_history;
    expect(h).toHaveLength(2);
    expect(h[1].stage).toBe(results.find((r) => r.status === 200)!.body.data.stage);
  });

  it('answers 400 for a from_stage that is no stage, and 404 for an unknown candidate', async () => {
    const id = await create({ name: 'Bad From' });
    const bad = await guarded(id, 'hired', 'ai_screened');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/from_stage must be one of/);
    expect((await guarded(randomUUID(), 'applied', 'ai_screened')).status).toBe(404);
  });
});
