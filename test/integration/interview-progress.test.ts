/**
 * A candidate's interview progress (`interview_progress` on the list and the one-candidate read:
 * the board's "2 of 3 scorecards"), kept as counters on the candidate item by the writes that
 * change what they count; and the step's kit and scorecard template on the read of one interview,
 * for whoever reads the interview.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lib/store/client';
import { keys } from '../../lib/store/table';
import { signedInMembers } from '../helpers/people';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let other: TestTenant;
let token: string;
let reqId: string;
let stepId: string;
type Who = 'admin' | 'recruiter' | 'hm' | 'alice' | 'bob' | 'carol';
const people: Record<Who, { id: string; cookie: string }> = {} as never;
const as = (who: Who, body?: unknown) => ({ headers: { Cookie: people[who].cookie }, ...(body !== undefined && { body }) });
const KIT = '## Prepare\n- Read the CV\n- Ask about trade-offs';
const TEMPLATE = { attributes: [{ name: 'System design' }], questions: ['What stood out?'] };

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
  const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Progress', hiring_manager_ids: [people.hm.id] } });
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
          kit: KIT,
          scorecard: TEMPLATE,
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
async function candidate() {
  const n = randomUUID().slice(0, 8);
  const c = await stack.call('POST', '/api/v1/candidates', { token, body: { name: `Progress ${n}`, req_id: reqId } });
  expect(c.status, c.text).toBe(201);
  return c.body.data.id as string;
}
async function schedule(cid: string, interviewers = [people.alice.id, people.bob.id]) {
  const h = hour++;
  const iv = await stack.call('POST', `/api/v1/candidates/${cid}/interviews`, {
    token,
    body: {
      step_id: stepId,
      start: new Date(Date.UTC(2027, 6, 1, h)).toISOString(),
      end: new Date(Date.UTC(2027, 6, 1, h, 45)).toISOString(),
      time_zone: 'Europe/Berlin',
      interviewers,
    },
  });
  expect(iv.status, iv.text).toBe(201);
  return iv.body.data.id as string;
}
const submit = (who: Who, ivId: string, overall = 'yes') =>
  stack.call('POST', `/api/interviews/${ivId}/scorecards`, as(who, { overall, ratings: [], answers: [], note: 'Private words' }));

/** The progress as the one-candidate read and the board's column (the list by requisition and stage) answer it. */
async function progress(cid: string) {
  const one = await stack.call('GET', `/api/v1/candidates/${cid}`, { token });
  expect(one.status, one.text).toBe(200);
  const column = await stack.call('GET', `/api/v1/candidates?req_id=${reqId}&stage=${one.body.data.stage}&limit=200`, { token });
  expect(column.status, column.text).toBe(200);
  const listed = column.body.data.find((c: { id: string }) => c.id === cid);
  expect(listed.interview_progress).toEqual(one.body.data.interview_progress);
  return one.body.data.interview_progress;
}
const counts = (interviews: number, scorecards_expected: number, scorecards: number) => ({ interviews, scorecards_expected, scorecards });

describe('interview progress on the candidate', () => {
  it('counts schedules, first scorecards (not edits), a change of panel and a cancel', async () => {
    const cid = await candidate();
    expect(await progress(cid)).toEqual(counts(0, 0, 0));
    const first = await schedule(cid);
    expect(await progress(cid)).toEqual(counts(1, 2, 0));
    expect((await submit('alice', first)).status).toBe(201);
    expect(await progress(cid)).toEqual(counts(1, 2, 1));
    expect((await submit('alice', first, 'strong_yes')).status).toBe(200);
    expect(await progress(cid), 'an edit does not count again').toEqual(counts(1, 2, 1));
    const second = await schedule(cid, [people.carol.id]);
    expect(await progress(cid)).toEqual(counts(2, 3, 1));
    expect((await submit('bob', first, 'no')).status).toBe(201);
    expect(await progress(cid)).toEqual(counts(2, 3, 2));
    // Alice, who wrote hers, leaves the panel and Carol joins: Alice's scorecard no longer counts.
    const swap = await stack.call('PATCH', `/api/v1/interviews/${first}`, {
      token,
      body: { interviewers: [people.bob.id, people.carol.id], allow_conflicts: true },
    });
    expect(swap.status, swap.text).toBe(200);
    expect(await progress(cid)).toEqual(counts(2, 3, 1));
    // A reschedule alone moves nothing.
    const moved = await stack.call('PATCH', `/api/v1/interviews/${first}`, {
      token,
      body: { start: '2027-08-01T09:00:00Z', end: '2027-08-01T10:00:00Z' },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(await progress(cid)).toEqual(counts(2, 3, 1));
    // Alice back on it: her scorecard counts again.
    const back = await stack.call('PATCH', `/api/v1/interviews/${first}`, {
      token,
      body: { interviewers: [people.alice.id, people.bob.id, people.carol.id] },
    });
    expect(back.status, back.text).toBe(200);
    expect(await progress(cid)).toEqual(counts(2, 4, 2));
    expect((await stack.call('DELETE', `/api/v1/interviews/${first}`, { token })).status).toBe(200);
    expect(await progress(cid)).toEqual(counts(1, 1, 0));
    expect((await stack.call('DELETE', `/api/v1/interviews/${first}`, { token })).status, 'a second cancel').toBe(200);
    expect((await stack.call('DELETE', `/api/v1/interviews/${second}`, { token })).status).toBe(200);
    expect(await progress(cid)).toEqual(counts(0, 0, 0));
  });

  it('a scorecard from someone taken off the panel is refused (403), and counts nothing', async () => {
    const cid = await candidate();
    const iv = await schedule(cid);
    const off = await stack.call('PATCH', `/api/v1/interviews/${iv}`, { token, body: { interviewers: [people.alice.id] } });
    expect(off.status, off.text).toBe(200);
    // A workspace token names Bob: the interview no longer has him.
    const late = await stack.call('POST', `/api/v1/interviews/${iv}/scorecards`, {
      token,
      body: { overall: 'yes', interviewer_id: people.bob.id },
    });
    expect([late.status, late.body.field]).toEqual([403, 'interviewer_id']);
    expect(await progress(cid)).toEqual(counts(1, 1, 0));
  });

  it('a candidate written before the counters reads zero', async () => {
    const cid = await candidate();
    await schedule(cid);
    await ddb.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: keys.candidate(tenant.id, cid),
        UpdateExpression: 'REMOVE iv_scheduled, iv_seats, sc_submitted',
      }),
    );
    expect(await progress(cid)).toEqual(counts(0, 0, 0));
  });

  it('every reader of the candidate gets the counts, never a recommendation: the blind rule holds for Bob before his own', async () => {
    const cid = await candidate();
    const iv = await schedule(cid);
    expect((await submit('alice', iv, 'strong_no')).status).toBe(201);
    for (const who of ['admin', 'recruiter', 'hm', 'bob'] as const) {
      const one = await stack.call('GET', `/api/candidates/${cid}`, as(who));
      expect(one.status, `${who}: ${one.text}`).toBe(200);
      expect(one.body.data.interview_progress, who).toEqual(counts(1, 2, 1));
      const list = await stack.call('GET', `/api/candidates?req_id=${reqId}&limit=200`, as(who));
      expect(list.status, `${who}: ${list.text}`).toBe(200);
      const row = list.body.data.find((c: { id: string }) => c.id === cid);
      expect(row.interview_progress, who).toEqual(counts(1, 2, 1));
      expect(JSON.stringify(one.body) + JSON.stringify(row), who).not.toMatch(/strong_no|Private words/);
    }
    // Bob still reads no scorecard of Alice's.
    expect((await stack.call('GET', `/api/interviews/${iv}/scorecards`, as('bob'))).body.data).toEqual([]);
    // Carol is on no interview of the candidate: the candidate is not hers to read.
    expect((await stack.call('GET', `/api/candidates/${cid}`, as('carol'))).status).toBe(404);
  });
});

describe('the kit and the scorecard template on the interview read', () => {
  it('answers them to whoever reads the interview, by token and by session; null once the step is gone from the plan', async () => {
    const cid = await candidate();
    const iv = await schedule(cid);
    const byToken = await stack.call('GET', `/api/v1/interviews/${iv}`, { token });
    expect(byToken.status, byToken.text).toBe(200);
    expect(byToken.body.data).toMatchObject({ kit: KIT, scorecard_template: TEMPLATE });
    for (const who of ['admin', 'recruiter', 'hm', 'alice', 'bob'] as const) {
      const res = await stack.call('GET', `/api/interviews/${iv}`, as(who));
      expect(res.status, `${who}: ${res.text}`).toBe(200);
      expect(res.body.data, who).toMatchObject({ kit: KIT, scorecard_template: TEMPLATE });
    }
    // An interviewer still does not read the plan itself.
    expect((await stack.call('GET', `/api/requisitions/${reqId}/interview-plan`, as('alice'))).status).toBe(403);
    // Carol is not on it, another workspace has no such interview: both the 404 of one that does not exist.
    expect((await stack.call('GET', `/api/interviews/${iv}`, as('carol'))).status).toBe(404);
    expect((await stack.call('GET', `/api/v1/interviews/${iv}`, { token: await other.token(['*']) })).status).toBe(404);
    // The list stays as it was: no kit in it.
    const list = await stack.call('GET', `/api/v1/interviews?candidate=${cid}`, { token });
    expect(list.body.data[0]).not.toHaveProperty('kit');

    const plan = await stack.call('PUT', `/api/v1/requisitions/${reqId}/interview-plan`, {
      token,
      body: { steps: [{ name: 'Culture', stage: 'interview_scheduled', duration_minutes: 30, kit: 'Other kit' }] },
    });
    expect(plan.status, plan.text).toBe(200);
    const gone = await stack.call('GET', `/api/interviews/${iv}`, as('alice'));
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body.data).toMatchObject({ kit: null, scorecard_template: null, step_name: 'Technical interview' });
  });
});
