/**
 * Scorecards through the token API and the console's twins: submitting on an interview one is on
 * (a session, a member's own token, a workspace token naming the interviewer), the template's
 * attributes and questions, every version kept, the lock at the requisition's decision, and the
 * blind rule by role on the interview's and the candidate's lists.
 */
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scorecard } from '../../lib/api/scorecards';
import { DEFAULT_REJECTION_REASONS } from '../../lib/model';
import { ddb } from '../../lib/store/client';
import { scorecardPartition } from '../../lib/store/scorecards';
import { settleAudit } from '../helpers/audit';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';
import { signedInMembers } from '../helpers/people';

let stack: Stack;
let tenant: TestTenant;
let other: TestTenant;
let token: string;
let reqId: string;
let stepId: string;
type Who = 'admin' | 'recruiter' | 'hm' | 'alice' | 'bob' | 'carol';
const people: Record<Who, { id: string; cookie: string }> = {} as never;

const as = (who: Who, body?: unknown) => ({ headers: { Cookie: people[who].cookie }, ...(body !== undefined && { body }) });
const card = { overall: 'yes', ratings: [{ attribute: 'System design', rating: 'strong_yes' }], answers: [], note: 'Clear thinker' };

beforeAll(async () => {
  stack = await startStack();
  [tenant, other] = [await stack.tenant(), await stack.tenant()];
  token = await tenant.token(['*']);
  Object.assign(
    people,
    await signedInMembers(stack, tenant, {
      admin: 'admin',
      recruiter: 'recruiter',
      hm: 'hiring_manager',
      alice: 'interviewer',
      bob: 'interviewer',
      carol: 'interviewer',
    }),
  );
  const req = await stack.call('POST', '/api/v1/requisitions', {
    token,
    body: { title: 'Scorecards', hiring_manager_ids: [people.hm.id] },
  });
  expect(req.status, req.text).toBe(201);
  reqId = req.body.data.id;
  const plan = await stack.call('PUT', `/api/v1/requisitions/${reqId}/interview-plan`, {
    token,
    body: {
      steps: [
        {
          name: 'Technical interview',
          stage: 'interview_scheduled',
          duration_minutes: 60,
          interviewers: [people.alice.id, people.bob.id],
          scorecard: { attributes: [{ name: 'System design' }, { name: 'Coding' }], questions: ['What stood out?'] },
        },
      ],
    },
  });
  expect(plan.status, plan.text).toBe(200);
  stepId = plan.body.data.steps[0].id;
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

let hour = 0;
/** A candidate with one interview (Alice and Bob) at an hour of its own. */
async function interview() {
  const n = randomUUID().slice(0, 8);
  const cand = await stack.call('POST', '/api/v1/candidates', {
    token,
    body: { name: `Card ${n}`, email: `sc-${n}@example.com`, req_id: reqId },
  });
  expect(cand.status, cand.text).toBe(201);
  const h = hour++;
  const start = new Date(Date.UTC(2027, 5, 1, h)).toISOString();
  const end = new Date(Date.UTC(2027, 5, 1, h, 45)).toISOString();
  const iv = await stack.call('POST', `/api/v1/candidates/${cand.body.data.id}/interviews`, {
    token,
    body: { step_id: stepId, start, end, time_zone: 'Europe/Berlin' },
  });
  expect(iv.status, iv.text).toBe(201);
  return { cid: cand.body.data.id as string, ivId: iv.body.data.id as string, personId: cand.body.data.person_id as string };
}

const submit = (who: Who, ivId: string, body: unknown = card) => stack.call('POST', `/api/interviews/${ivId}/scorecards`, as(who, body));
const ofInterview = (who: Who, ivId: string) => stack.call('GET', `/api/interviews/${ivId}/scorecards`, as(who));
const ofCandidate = (who: Who, cid: string) => stack.call('GET', `/api/candidates/${cid}/scorecards`, as(who));
const writers = (res: { body: { data: Scorecard[] } }) => res.body.data.map((s) => s.interviewer_id).sort();

describe('submitting', () => {
  it('an interviewer submits by session (201), edits it (200, version 2), and every version is kept', async () => {
    const { cid, ivId } = await interview();
    const first = await submit('alice', ivId, { ...card, answers: [{ question: 'What stood out?', answer: 'The trade-offs' }] });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toEqual({
      id: expect.any(String),
      interview_id: ivId,
      candidate_id: cid,
      req_id: reqId,
      step_id: stepId,
      interviewer_id: people.alice.id,
      overall: 'yes',
      ratings: [{ attribute: 'System design', rating: 'strong_yes' }],
      answers: [{ question: 'What stood out?', answer: 'The trade-offs' }],
      note: 'Clear thinker',
      version: 1,
      submitted_at: expect.any(String),
      updated_at: first.body.data.submitted_at,
    });
    const edit = await submit('alice', ivId, { overall: 'strong_yes' });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.data).toMatchObject({ id: first.body.data.id, version: 2, overall: 'strong_yes', note: null, ratings: [] });
    expect(edit.body.data.submitted_at).toBe(first.body.data.submitted_at);
    const list = await stack.call('GET', `/api/v1/interviews/${ivId}/scorecards`, { token });
    expect(list.body.data).toEqual([edit.body.data]);
    const { Items = [] } = await ddb.send(
      new QueryCommand({
        TableName: stack.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :v)',
        ExpressionAttributeValues: { ':pk': scorecardPartition(tenant.id, cid), ':v': 'SCV#' },
      }),
    );
    expect(Items.map((i) => [i.version, i.overall, i.note ?? null])).toEqual([
      [1, 'yes', 'Clear thinker'],
      [2, 'strong_yes', null],
    ]);
  });

  it('refuses who is not on the interview, and a rating or answer the template does not hold, naming the field', async () => {
    const { ivId } = await interview();
    expect((await submit('recruiter', ivId)).status).toBe(403);
    expect((await submit('hm', ivId)).status).toBe(403);
    // Carol cannot read an interview she is not on: it does not exist for her.
    expect((await submit('carol', ivId)).status).toBe(404);
    const cases: [unknown, string][] = [
      [{ ...card, ratings: [{ attribute: 'Charisma', rating: 'yes' }] }, 'ratings[0].attribute'],
      [{ ...card, ratings: [card.ratings[0], card.ratings[0]] }, 'ratings[1].attribute'],
      [{ ...card, answers: [{ question: 'Favourite colour?', answer: 'Blue' }] }, 'answers[0].question'],
      [{ ...card, overall: 'maybe' }, 'overall'],
      [{ ...card, ratings: [{ attribute: 'Coding', rating: 'no_decision' }] }, 'ratings[0].rating'],
      [{ ...card, interviewer_id: people.bob.id }, 'interviewer_id'],
    ];
    for (const [body, field] of cases) {
      const res = await submit('alice', ivId, body);
      expect(res.status, `${field}: ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(404);
      expect(res.body.field, res.text).toBe(field);
    }
    expect((await submit('alice', randomUUID())).status).toBe(404);
  });

  it("a member's own token writes as them; a workspace token names the interviewer; another workspace sees nothing", async () => {
    const { ivId } = await interview();
    const minted = await stack.call(
      'POST',
      '/api/tokens',
      as('bob', { name: 'bob-cards', scopes: ['scorecards:write', 'scorecards:read'] }),
    );
    expect(minted.status, minted.text).toBe(201);
    const bobs = await stack.call('POST', `/api/v1/interviews/${ivId}/scorecards`, { token: minted.body.data.token, body: card });
    expect(bobs.status, bobs.text).toBe(201);
    expect(bobs.body.data.interviewer_id).toBe(people.bob.id);
    const noOne = await stack.call('POST', `/api/v1/interviews/${ivId}/scorecards`, { token, body: card });
    expect([noOne.status, noOne.body.field]).toEqual([400, 'interviewer_id']);
    const forAlice = await stack.call('POST', `/api/v1/interviews/${ivId}/scorecards`, {
      token,
      body: { ...card, interviewer_id: people.alice.id },
    });
    expect(forAlice.status, forAlice.text).toBe(201);
    expect(forAlice.body.data.interviewer_id).toBe(people.alice.id);
    const readOnly = await tenant.token(['interviews:read']);
    expect((await stack.call('GET', `/api/v1/interviews/${ivId}/scorecards`, { token: readOnly })).status).toBe(403);
    const stranger = await other.token(['*']);
    expect((await stack.call('GET', `/api/v1/interviews/${ivId}/scorecards`, { token: stranger })).status).toBe(404);
    expect(
      (
        await stack.call('POST', `/api/v1/interviews/${ivId}/scorecards`, {
          token: stranger,
          body: { ...card, interviewer_id: people.alice.id },
        })
      ).status,
    ).toBe(404);
  });

  it('locks at the decision: a rejected candidate, or a cancelled interview, takes no scorecard (409)', async () => {
    const { cid, ivId } = await interview();
    expect((await submit('alice', ivId)).status).toBe(201);
    const rejected = await stack.call('POST', '/api/v1/pipeline', {
      token,
      body: { candidate_id: cid, stage: 'rejected', rejection_reason_id: DEFAULT_REJECTION_REASONS[0]!.id },
    });
    expect(rejected.status, rejected.text).toBe(200);
    const locked = await submit('alice', ivId, { overall: 'no' });
    expect([locked.status, locked.body.code]).toEqual([409, 'scorecard_locked']);
    expect((await ofInterview('alice', ivId)).body.data.map((s: Scorecard) => s.overall)).toEqual(['yes']);
    const second = await interview();
    expect((await stack.call('DELETE', `/api/v1/interviews/${second.ivId}`, { token })).status).toBe(200);
    expect((await submit('alice', second.ivId)).status).toBe(409);
  });
});

describe('the blind rule', () => {
  it('an interviewer sees no other scorecard of the candidate until they submitted theirs; the team sees all', async () => {
    const { cid, ivId } = await interview();
    const a = await submit('alice', ivId);
    expect(a.status).toBe(201);
    for (const read of [ofInterview, ofCandidate]) {
      const id = read === ofInterview ? ivId : cid;
      expect(writers(await read('alice', id))).toEqual([people.alice.id]);
      expect((await read('bob', id)).body.data).toEqual([]);
      for (const who of ['admin', 'recruiter', 'hm'] as const) expect(writers(await read(who, id)), who).toEqual([people.alice.id]);
    }
    // Carol is on no interview of this candidate: neither the interview nor the candidate exists for her.
    expect((await ofInterview('carol', ivId)).status).toBe(404);
    expect((await ofCandidate('carol', cid)).status).toBe(404);
    expect((await submit('bob', ivId, { overall: 'no' })).status).toBe(201);
    const both = [people.alice.id, people.bob.id].sort();
    for (const who of ['alice', 'bob', 'admin', 'recruiter', 'hm'] as const) {
      expect(writers(await ofInterview(who, ivId)), who).toEqual(both);
      expect(writers(await ofCandidate(who, cid)), who).toEqual(both);
    }
  });

  it("the person's activity feed shows scorecard items (ids and overall, no text) only to whom the blind rule lets read them", async () => {
    const { cid, ivId, personId } = await interview();
    const first = await submit('alice', ivId);
    expect(first.status).toBe(201);
    expect((await submit('alice', ivId, { overall: 'strong_yes' })).status).toBe(200);
    await settleAudit();
    const feed = async (who: Who) => {
      const res = await stack.call('GET', `/api/people/${personId}/activity?limit=100`, as(who));
      return res;
    };
    const cardsIn = (res: { body: { data: { kind: string }[] } }) => res.body.data.filter((i) => i.kind.startsWith('scorecard.'));
    const seen = await feed('admin');
    expect(seen.status, seen.text).toBe(200);
    expect(cardsIn(seen)).toEqual([
      expect.objectContaining({
        kind: 'scorecard.updated',
        candidate_id: cid,
        scorecard_id: first.body.data.id,
        interview_id: ivId,
        interviewer_id: people.alice.id,
        overall: 'strong_yes',
        version: 2,
      }),
      expect.objectContaining({ kind: 'scorecard.submitted', overall: 'yes', version: 1 }),
    ]);
    expect(JSON.stringify(seen.body)).not.toContain('Clear thinker');
    for (const who of ['recruiter', 'hm', 'alice'] as const) expect(cardsIn(await feed(who)), who).toHaveLength(2);
    // Bob is on the interview and sees the person, but not Alice's scorecard before his own.
    const blind = await feed('bob');
    expect(blind.status, blind.text).toBe(200);
    expect(blind.body.data.length).toBeGreaterThan(0);
    expect(cardsIn(blind)).toEqual([]);
    expect((await feed('carol')).status).toBe(404);
    expect((await submit('bob', ivId, { overall: 'no' })).status).toBe(201);
    await settleAudit();
    expect(cardsIn(await feed('bob')).map((i) => i.kind)).toEqual(['scorecard.submitted', 'scorecard.updated', 'scorecard.submitted']);
  });

  it("a member's token reads as the member does: blind until their own scorecard", async () => {
    const { ivId } = await interview();
    expect((await submit('alice', ivId)).status).toBe(201);
    const minted = await stack.call('POST', '/api/tokens', as('bob', { name: 'bob-read', scopes: ['scorecards:read'] }));
    const read = await stack.call('GET', `/api/v1/interviews/${ivId}/scorecards`, { token: minted.body.data.token });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toEqual([]);
  });
});
