/**
 * Screening that acts: the worker applies the posting's outcome as it makes the candidate (a
 * table of answers against decisions), a rejection runs once its delay has passed on a fake
 * clock and not before, a person acting first makes it moot, every decision is in the history
 * and the activity feed by the actor `system` with the rule in plain words, and one action
 * overturns each kind of decision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationMessage } from '../../../lib/applications/queue';
import { runApplication } from '../../../lib/domain/application-run';
import { rejectDueScreenings } from '../../../lib/domain/screening';
import { newId } from '../../../lib/ids';
import { getCandidate } from '../../../lib/store/candidates';
import { dueScreeningRejections } from '../../../lib/store/screening';
import { settleAudit } from '../../helpers/audit';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
});
afterAll(() => stack.close());

const questions = [
  { id: 'eu_work', type: 'yes_no', label: 'Are you authorised to work in the EU?', required: true },
  { id: 'years', type: 'number', label: 'Years of TypeScript', required: false },
];
const rules = [
  { question_id: 'eu_work', op: 'eq', value: false, label: 'Not authorised to work in the EU' },
  { question_id: 'years', op: 'lt', value: 3 },
];

async function job(outcome: Record<string, unknown>): Promise<string> {
  const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Platform Engineer' } });
  const id = req.body.data.id as string;
  const put = await stack.call('PUT', `/api/v1/requisitions/${id}/posting`, {
    token,
    body: { published: true, description: 'We build pipelines.', remote: 'no', questions, rules, outcome },
  });
  expect(put.status, put.text).toBe(200);
  return id;
}

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const clock = (ms: number) => () => new Date(ms).toISOString();
const HOUR = 3_600_000;

function message(reqId: string, answers: Record<string, unknown>): ApplicationMessage {
  return {
    v: 1,
    kind: 'application',
    tenantId: tenant.id,
    reqId,
    applicationId: newId(),
    receivedAt: new Date(T0).toISOString(),
    name: 'Ada Lovelace',
    email: `ada-${newId().slice(-12)}@example.com`,
    answers,
    consent: { accepted: true, text: 'I have read the privacy notice.', version: '2026-01' },
    source: 'careers',
  };
}

const read = async (id: string) => {
  const res = await stack.call('GET', `/api/v1/candidates/${id}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};
const overturn = (id: string) => stack.call('POST', `/api/v1/candidates/${id}/screening/overturn`, { token });
const dueOf = async (id: string) => (await dueScreeningRejections('9999-12-31T00:00:00.000Z', 1000)).filter((d) => d.candidateId === id);

describe('the worker applies the screening outcome', () => {
  const table: [
    string,
    Record<string, unknown>,
    Record<string, unknown>,
    { stage: string; result: string; flagged: boolean; pending: boolean },
  ][] = [
    [
      'pass, move on',
      { on_pass: 'move_to_ai_screened', on_fail: 'flag' },
      { eu_work: true, years: 5 },
      { stage: 'ai_screened', result: 'passed', flagged: false, pending: false },
    ],
    [
      'pass, stay',
      { on_pass: 'stay', on_fail: 'flag' },
      { eu_work: true, years: 5 },
      { stage: 'applied', result: 'passed', flagged: false, pending: false },
    ],
    [
      'pass without the optional answer',
      { on_pass: 'move_to_ai_screened', on_fail: 'flag' },
      { eu_work: true },
      { stage: 'ai_screened', result: 'passed', flagged: false, pending: false },
    ],
    [
      'fail, flag',
      { on_pass: 'move_to_ai_screened', on_fail: 'flag' },
      { eu_work: false, years: 5 },
      { stage: 'applied', result: 'failed', flagged: true, pending: false },
    ],
    [
      'fail, reject later',
      { on_pass: 'move_to_ai_screened', on_fail: 'reject_after_delay' },
      { eu_work: true, years: 1 },
      { stage: 'applied', result: 'failed', flagged: false, pending: true },
    ],
  ];
  for (const [name, outcome, answers, want] of table) {
    it(name, async () => {
      const m = message(await job(outcome), answers);
      expect(await runApplication(m, clock(T0))).toBe('created');
      const c = await read(m.applicationId);
      expect(c.stage).toBe(want.stage);
      expect(c.screening).toMatchObject({ result: want.result, flagged: want.flagged, screened_at: new Date(T0).toISOString() });
      expect(c.screening.reject_at).toBe(want.pending ? new Date(T0 + 24 * HOUR).toISOString() : null);
      expect(await dueOf(m.applicationId)).toHaveLength(want.pending ? 1 : 0);
      if (want.stage === 'ai_screened') {
        expect(c.stage_history.at(-1)).toMatchObject({
          stage: 'ai_screened',
          from_stage: 'applied',
          actor: { type: 'system', id: 'screening' },
        });
      } else expect(c.stage_history).toHaveLength(1);
    });
  }

  it('says why in plain words: the rule label, else the question, the answer and the rule', async () => {
    const m = message(await job({ on_pass: 'stay', on_fail: 'flag' }), { eu_work: false, years: 1 });
    await runApplication(m, clock(T0));
    expect((await read(m.applicationId)).screening.reasons).toEqual([
      'Not authorised to work in the EU',
      'Answered 1 to "Years of TypeScript" (knockout when the answer is below 3)',
    ]);
  });

  it('a message delivered again changes nothing: the screening was written with the candidate', async () => {
    const m = message(await job({ on_pass: 'move_to_ai_screened', on_fail: 'flag' }), { eu_work: true });
    expect(await runApplication(m, clock(T0))).toBe('created');
    expect(await runApplication(m, clock(T0 + 1000))).toBe('duplicate');
    const c = await read(m.applicationId);
    expect(c.stage).toBe('ai_screened');
    expect(c.stage_history).toHaveLength(2);
  });
});

describe('the delayed rejection', () => {
  it('runs once its delay (the posting setting) has passed, not before, as system with the reason screening', async () => {
    const m = message(await job({ on_pass: 'stay', on_fail: 'reject_after_delay', reject_delay_hours: 2 }), { eu_work: false });
    await runApplication(m, clock(T0));
    expect((await read(m.applicationId)).screening.reject_at).toBe(new Date(T0 + 2 * HOUR).toISOString());
    await rejectDueScreenings(clock(T0 + 2 * HOUR - 1000));
    expect((await read(m.applicationId)).stage).toBe('applied');
    const run = await rejectDueScreenings(clock(T0 + 2 * HOUR + 1000));
    expect(run.rejected).toBeGreaterThanOrEqual(1);
    const c = await read(m.applicationId);
    expect(c.stage).toBe('rejected');
    expect(c.rejection).toMatchObject({ reason_id: 'screening' });
    expect(c.stage_history.at(-1)).toMatchObject({
      stage: 'rejected',
      actor: { type: 'system', id: 'screening' },
      rejection_reason: { id: 'screening' },
    });
    expect(c.screening).toMatchObject({ reject_at: null, rejected_at: new Date(T0 + 2 * HOUR + 1000).toISOString() });
    expect(await dueOf(m.applicationId)).toHaveLength(0);
    // It does not run twice.
    await rejectDueScreenings(clock(T0 + 3 * HOUR));
    expect((await read(m.applicationId)).stage_history).toHaveLength(2);
  });

  it('is moot when a person moved the candidate first', async () => {
    const m = message(await job({ on_pass: 'stay', on_fail: 'reject_after_delay' }), { eu_work: false });
    await runApplication(m, clock(T0));
    const moved = await stack.call('POST', '/api/v1/pipeline', {
      token,
      body: { candidate_id: m.applicationId, stage: 'interview_scheduled' },
    });
    expect(moved.status, moved.text).toBe(200);
    await rejectDueScreenings(clock(T0 + 25 * HOUR));
    const c = await read(m.applicationId);
    expect(c.stage).toBe('interview_scheduled');
    expect(c.screening).toMatchObject({ reject_at: null, rejected_at: null });
    expect(await dueOf(m.applicationId)).toHaveLength(0);
  });

  it('is written to the activity feed with the rule that decided, as system', async () => {
    const m = message(await job({ on_pass: 'stay', on_fail: 'reject_after_delay' }), { eu_work: false });
    await runApplication(m, clock(T0));
    await rejectDueScreenings(clock(T0 + 25 * HOUR));
    await settleAudit();
    const personId = (await getCandidate(tenant.id, m.applicationId))!.person_id as string;
    const res = await stack.call('GET', `/api/v1/people/${personId}/activity?limit=100`, { token });
    expect(res.status, res.text).toBe(200);
    const items = res.body.data as { kind: string; actor: { type: string; id: string }; [k: string]: unknown }[];
    const screened = items.find((i) => i.kind === 'candidate.screened');
    expect(screened).toMatchObject({ actor: { type: 'system', id: 'screening' } });
    expect(JSON.stringify(screened)).toContain('Not authorised to work in the EU');
    const rejected = items.find((i) => i.kind === 'candidate.stage_changed');
    expect(rejected).toMatchObject({ actor: { type: 'system', id: 'screening' } });
    expect(JSON.stringify(rejected)).toContain('Not authorised to work in the EU');
    expect(JSON.stringify(rejected)).toContain('screening');
  });
});

describe('overturn in one action', () => {
  it('before the delay: cancels the pending rejection, which then never runs', async () => {
    const m = message(await job({ on_pass: 'stay', on_fail: 'reject_after_delay' }), { eu_work: false });
    await runApplication(m, clock(T0));
    const res = await overturn(m.applicationId);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ result: 'failed', reject_at: null, overturned_at: expect.any(String) });
    expect(await dueOf(m.applicationId)).toHaveLength(0);
    await rejectDueScreenings(clock(T0 + 25 * HOUR));
    expect((await read(m.applicationId)).stage).toBe('applied');
  });

  it('after the delay: takes the candidate back to applied', async () => {
    const m = message(await job({ on_pass: 'stay', on_fail: 'reject_after_delay' }), { eu_work: false });
    await runApplication(m, clock(T0));
    await rejectDueScreenings(clock(T0 + 25 * HOUR));
    expect((await read(m.applicationId)).stage).toBe('rejected');
    expect((await overturn(m.applicationId)).status).toBe(200);
    const c = await read(m.applicationId);
    expect(c.stage).toBe('applied');
    expect(c.rejection).toBeNull();
    expect(c.stage_history.at(-1)).toMatchObject({ stage: 'applied', from_stage: 'rejected', actor: { type: 'token' } });
  });

  it('clears the review flag, audited', async () => {
    const m = message(await job({ on_pass: 'stay', on_fail: 'flag' }), { eu_work: false });
    await runApplication(m, clock(T0));
    expect((await overturn(m.applicationId)).body.data.flagged).toBe(false);
    expect((await read(m.applicationId)).screening.flagged).toBe(false);
    await settleAudit();
    const admin = await tenant.user('admin');
    const cookie = await stack.login(admin.email, PASSWORD);
    const log = await stack.call('GET', '/api/audit?action=candidate.screening_overturned&limit=100', { headers: { Cookie: cookie } });
    expect(log.status, log.text).toBe(200);
    const records = log.body.data as { target_id?: string; target?: { id: string }; changes?: unknown }[];
    const mine = records.filter((r) => JSON.stringify(r).includes(m.applicationId));
    expect(mine).toHaveLength(1);
    expect(JSON.stringify(mine[0])).toContain('clear_flag');
  });

  it('answers 409 nothing_to_overturn twice over, for a pass and for a candidate never screened; 404 for another workspace', async () => {
    const m = message(await job({ on_pass: 'stay', on_fail: 'flag' }), { eu_work: false });
    await runApplication(m, clock(T0));
    expect((await overturn(m.applicationId)).status).toBe(200);
    const again = await overturn(m.applicationId);
    expect([again.status, again.body.code]).toEqual([409, 'nothing_to_overturn']);
    const pass = message(await job({ on_pass: 'stay', on_fail: 'flag' }), { eu_work: true });
    await runApplication(pass, clock(T0));
    expect((await overturn(pass.applicationId)).body.code).toBe('nothing_to_overturn');
    const typed = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Typed In' } });
    expect((await overturn(typed.body.data.id)).body.code).toBe('nothing_to_overturn');
    const other = await stack.tenant();
    const res = await stack.call('POST', `/api/v1/candidates/${m.applicationId}/screening/overturn`, { token: await other.token(['*']) });
    expect(res.status).toBe(404);
  });
});

describe('erasure', () => {
  it('reaches the screening, whose reasons quote the answers', async () => {
    const m = message(await job({ on_pass: 'stay', on_fail: 'flag' }), { eu_work: true, years: 1 });
    await runApplication(m, clock(T0));
    expect((await getCandidate(tenant.id, m.applicationId))!.screening).toContain('Answered 1');
    expect((await stack.call('POST', `/api/v1/candidates/${m.applicationId}/erase`, { token })).status).toBe(200);
    const item = (await getCandidate(tenant.id, m.applicationId))!;
    expect(item).not.toHaveProperty('screening');
    expect((await read(m.applicationId)).screening).toBeNull();
  });
});
