/**
 * The interview follow-up run with a fake clock (runInterviewFollowUps(nowMs), as the scheduled
 * function and `npm start`'s timer run it): the move to interviewed once the candidate's last
 * scheduled interview has ended (a reschedule later, a cancelled one, the setting off, a candidate
 * already moved on, two runs at once), and the reminder of a missing scorecard at 9:00 in the
 * interviewer's own zone (else the interview's) on the first working day after it, sent once
 * through the local SES, with a zone set or changed after the booking; a member setting their own
 * zone; and `feedback_overdue` on the interview's read.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInterviewFollowUps } from '../../lib/domain/interview-follow-up';
import { sentMail, startLocalSes, type LocalSes } from '../../dev/ses';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let ses: LocalSes;
let tenant: TestTenant;
let token: string;
let reqId: string;
let stepId: string;
type Who = 'admin' | 'recruiter' | 'hm' | 'alice' | 'bob' | 'carol' | 'dave' | 'erin';
const people: Record<Who, { id: string; cookie: string; email: string }> = {} as never;
const as = (who: Who, body?: unknown) => ({ headers: { Cookie: people[who].cookie }, ...(body !== undefined && { body }) });

beforeAll(async () => {
  ses = await startLocalSes();
  // Read by lib/email/send.ts when the run first loads it (it sends only with a sender set).
  process.env.SES_ENDPOINT = ses.endpoint;
  process.env.MAIL_FROM = 'Talent Pipeline <no-reply@talent-pipeline.localhost>';
  process.env.CONSOLE_URL = 'https://console.example.com';
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  const cast = {
    admin: 'admin',
    recruiter: 'recruiter',
    hm: 'hiring_manager',
    alice: 'interviewer',
    bob: 'interviewer',
    carol: 'interviewer',
    dave: 'interviewer',
    erin: 'interviewer',
  } as const;
  for (const [who, role] of Object.entries(cast) as [Who, (typeof cast)[Who]][]) {
    const email = `${who}-${randomUUID().slice(0, 6)}@example.com`;
    const u = await tenant.user(role, email);
    people[who] = { id: u.id, email, cookie: await stack.login(email, PASSWORD) };
  }
  const req = await stack.call('POST', '/api/v1/requisitions', {
    token,
    body: { title: 'Follow-ups', hiring_manager_ids: [people.hm.id] },
  });
  expect(req.status, req.text).toBe(201);
  reqId = req.body.data.id;
  const plan = await stack.call('PUT', `/api/v1/requisitions/${reqId}/interview-plan`, {
    token,
    body: {
      steps: [
        { name: 'Technical interview', stage: 'interview_scheduled', duration_minutes: 60, interviewers: [people.alice.id, people.bob.id] },
      ],
    },
  });
  expect(plan.status, plan.text).toBe(200);
  stepId = plan.body.data.steps[0].id;
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await ses?.stop();
});

async function candidate(t = token, req = reqId) {
  const n = randomUUID().slice(0, 8);
  const res = await stack.call('POST', '/api/v1/candidates', {
    token: t,
    body: { name: `Follow ${n}`, email: `fu-${n}@example.com`, req_id: req },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}
/** An interview of `cid` from `start` to `end` (ISO), Alice and Bob, booked whatever else they have. */
async function schedule(cid: string, start: string, end: string, timeZone = 'Europe/Berlin', t = token, step = stepId) {
  const res = await stack.call('POST', `/api/v1/candidates/${cid}/interviews`, {
    token: t,
    body: { step_id: step, start, end, time_zone: timeZone, allow_conflicts: true },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}
const stageOf = async (cid: string, t = token) => (await stack.call('GET', `/api/v1/candidates/${cid}`, { token: t })).body.data;
const ms = (iso: string) => Date.parse(iso);
const mailTo = async (who: Who) => (await sentMail(ses.endpoint)).filter((m) => m.destination.to.includes(people[who].email));

describe('the move to interviewed', () => {
  it('moves the candidate once their interview has ended: actor system, one stay, not before', async () => {
    const cid = await candidate();
    await schedule(cid, '2030-01-07T09:00:00.000Z', '2030-01-07T10:00:00.000Z');
    expect((await stageOf(cid)).stage).toBe('interview_scheduled');
    await runInterviewFollowUps(ms('2030-01-07T09:59:59.000Z'));
    expect((await stageOf(cid)).stage).toBe('interview_scheduled');
    const run = await runInterviewFollowUps(ms('2030-01-07T10:00:00.000Z'));
    expect(run.moved).toBe(1);
    const after = await stageOf(cid);
    expect(after.stage).toBe('interviewed');
    // The service's own move: no member or token in the history (the audit log names the system actor).
    expect(after.stage_history.at(-1)).toMatchObject({ stage: 'interviewed', from_stage: 'interview_scheduled', actor: null });
  });

  it('waits for a reschedule to a later end, and for the last of several interviews', async () => {
    const cid = await candidate();
    const iv = await schedule(cid, '2030-01-08T09:00:00.000Z', '2030-01-08T10:00:00.000Z');
    await schedule(cid, '2030-01-08T13:00:00.000Z', '2030-01-08T14:00:00.000Z');
    const moved = await stack.call('PATCH', `/api/v1/interviews/${iv}`, {
      token,
      body: { start: '2030-01-08T15:00:00.000Z', end: '2030-01-08T16:00:00.000Z', allow_conflicts: true },
    });
    expect(moved.status, moved.text).toBe(200);
    await runInterviewFollowUps(ms('2030-01-08T10:30:00.000Z'));
    await runInterviewFollowUps(ms('2030-01-08T14:30:00.000Z'));
    expect((await stageOf(cid)).stage).toBe('interview_scheduled');
    await runInterviewFollowUps(ms('2030-01-08T16:00:00.000Z'));
    expect((await stageOf(cid)).stage).toBe('interviewed');
  });

  it('does not count a cancelled interview, whether cancelled before or after the other ended', async () => {
    const before = await candidate();
    await schedule(before, '2030-01-09T09:00:00.000Z', '2030-01-09T10:00:00.000Z');
    const later = await schedule(before, '2030-01-10T09:00:00.000Z', '2030-01-10T10:00:00.000Z');
    expect((await stack.call('DELETE', `/api/v1/interviews/${later}`, { token })).status).toBe(200);
    await runInterviewFollowUps(ms('2030-01-09T10:00:00.000Z'));
    expect((await stageOf(before)).stage).toBe('interviewed');

    const after = await candidate();
    await schedule(after, '2030-01-09T11:00:00.000Z', '2030-01-09T12:00:00.000Z');
    const next = await schedule(after, '2030-01-11T09:00:00.000Z', '2030-01-11T10:00:00.000Z');
    await runInterviewFollowUps(ms('2030-01-09T12:00:00.000Z'));
    expect((await stageOf(after)).stage).toBe('interview_scheduled');
    expect((await stack.call('DELETE', `/api/v1/interviews/${next}`, { token })).status).toBe(200);
    await runInterviewFollowUps(ms('2030-01-09T12:05:00.000Z'));
    expect((await stageOf(after)).stage).toBe('interviewed');
  });

  it('leaves a candidate already moved further untouched', async () => {
    const cid = await candidate();
    await schedule(cid, '2030-01-14T09:00:00.000Z', '2030-01-14T10:00:00.000Z');
    const on = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: cid, stage: 'offer_sent' } });
    expect(on.status, on.text).toBe(200);
    await runInterviewFollowUps(ms('2030-01-14T10:00:00.000Z'));
    const c = await stageOf(cid);
    expect(c.stage).toBe('offer_sent');
    expect(c.stage_history.filter((s: { stage: string }) => s.stage === 'interviewed')).toEqual([]);
  });

  it('two runs at once make one move', async () => {
    const cid = await candidate();
    await schedule(cid, '2030-01-15T09:00:00.000Z', '2030-01-15T10:00:00.000Z');
    const runs = await Promise.all([
      runInterviewFollowUps(ms('2030-01-15T10:00:00.000Z')),
      runInterviewFollowUps(ms('2030-01-15T10:00:00.000Z')),
    ]);
    expect(runs.reduce((n, r) => n + r.moved, 0)).toBe(1);
    const c = await stageOf(cid);
    expect(c.stage).toBe('interviewed');
    expect(c.stage_history.filter((s: { stage: string }) => s.stage === 'interviewed')).toHaveLength(1);
  });

  it('moves nobody in a workspace that turned auto_interview_stages off', async () => {
    const off = await stack.tenant();
    const offToken = await off.token(['*']);
    const admin = await off.user('admin');
    const cookie = await stack.login(admin.email, PASSWORD);
    const set = await stack.call('PUT', '/api/settings/pipeline', {
      headers: { Cookie: cookie },
      body: { stuck_days: {}, auto_interview_stages: false },
    });
    expect(set.status, set.text).toBe(200);
    const req = await stack.call('POST', '/api/v1/requisitions', { token: offToken, body: { title: 'Off' } });
    const plan = await stack.call('PUT', `/api/v1/requisitions/${req.body.data.id}/interview-plan`, {
      token: offToken,
      body: { steps: [{ name: 'Chat', stage: 'interview_scheduled', duration_minutes: 30, interviewers: [admin.id] }] },
    });
    const cid = await candidate(offToken, req.body.data.id);
    await stack.call('POST', '/api/v1/pipeline', { token: offToken, body: { candidate_id: cid, stage: 'interview_scheduled' } });
    await schedule(cid, '2030-01-16T09:00:00.000Z', '2030-01-16T10:00:00.000Z', 'Europe/Berlin', offToken, plan.body.data.steps[0].id);
    await runInterviewFollowUps(ms('2030-01-16T10:00:00.000Z'));
    expect((await stageOf(cid, offToken)).stage).toBe('interview_scheduled');
  });
});

describe('the feedback reminder', () => {
  const submit = (who: Who, iv: string) => stack.call('POST', `/api/interviews/${iv}/scorecards`, as(who, { overall: 'yes' }));

  it('reaches the interviewer without a scorecard at 9:00 their zone the next working day, once: Berlin and Los Angeles', async () => {
    // Tuesday 2030-01-22, in Berlin (the reminder: Wednesday 9:00 CET, 08:00 UTC) and in Los Angeles
    // (Wednesday 9:00 PST, 17:00 UTC).
    const berlin = await schedule(await candidate(), '2030-01-22T13:00:00.000Z', '2030-01-22T14:00:00.000Z', 'Europe/Berlin');
    const la = await schedule(await candidate(), '2030-01-22T21:00:00.000Z', '2030-01-22T22:00:00.000Z', 'America/Los_Angeles');
    expect((await submit('alice', berlin)).status).toBe(201);
    expect((await submit('alice', la)).status).toBe(201);
    const mine = async (who: Who) => (await mailTo(who)).filter((m) => m.body.text?.includes('22 January 2030'));
    await runInterviewFollowUps(ms('2030-01-23T07:59:59.000Z'));
    expect(await mine('bob')).toEqual([]);
    const at9Berlin = await runInterviewFollowUps(ms('2030-01-23T08:00:00.000Z'));
    expect(at9Berlin.reminded).toBe(1);
    const [mail] = await mine('bob');
    expect(mail!.subject).toBe('Scorecard missing: Technical interview');
    expect(mail!.body.text).toContain('Tuesday, 22 January 2030 at 14:00 (Europe/Berlin)');
    expect(mail!.body.text).toContain('https://console.example.com/candidates/');
    expect(mail!.body.text).not.toMatch(/Follow [0-9a-f]{8}|fu-[0-9a-f]{8}@/);
    await runInterviewFollowUps(ms('2030-01-23T16:59:59.000Z'));
    expect(await mine('bob')).toHaveLength(1);
    await Promise.all([runInterviewFollowUps(ms('2030-01-23T17:00:00.000Z')), runInterviewFollowUps(ms('2030-01-23T17:00:00.000Z'))]);
    await runInterviewFollowUps(ms('2030-01-24T17:00:00.000Z'));
    const both = await mine('bob');
    expect(both).toHaveLength(2);
    expect(both[1]!.body.text).toContain('Tuesday, 22 January 2030 at 13:00 (America/Los_Angeles)');
    expect(await mine('alice')).toEqual([]);
    void la;
  });

  it('a Friday interview is reminded on Monday, not on the weekend', async () => {
    // Friday 2030-02-01 in Berlin; Monday 2030-02-04 9:00 CET is 08:00 UTC.
    await schedule(await candidate(), '2030-02-01T15:00:00.000Z', '2030-02-01T16:00:00.000Z', 'Europe/Berlin');
    const mine = async () => (await mailTo('alice')).filter((m) => m.body.text?.includes('1 February 2030')).length;
    await runInterviewFollowUps(ms('2030-02-02T08:00:00.000Z'));
    await runInterviewFollowUps(ms('2030-02-04T07:59:00.000Z'));
    expect(await mine()).toBe(0);
    await runInterviewFollowUps(ms('2030-02-04T08:00:00.000Z'));
    expect(await mine()).toBe(1);
  });
});

describe("a member's own time zone", () => {
  const setZone = (who: Who, time_zone: unknown) => stack.call('PUT', '/api/account/time-zone', as(who, { time_zone }));

  it('is set by the member, refused unless the runtime lists it, read back by the session and by the members list', async () => {
    for (const bad of ['Mars/Olympus_Mons', 'europe/berlin', '+02:00', 42, '']) {
      const res = await setZone('erin', bad);
      expect([res.status, res.body.code, res.body.field], String(bad)).toEqual([400, 'invalid_field', 'time_zone']);
      expect(res.body.error).toBe('time_zone must be an IANA time zone such as Europe/Berlin, or null for none');
    }
    const set = await setZone('erin', 'Asia/Kolkata');
    expect([set.status, set.body]).toEqual([200, { data: { time_zone: 'Asia/Kolkata' } }]);
    expect((await stack.call('GET', '/api/session', as('erin'))).body.data.user.time_zone).toBe('Asia/Kolkata');
    const listed = (await stack.call('GET', '/api/members', as('admin'))).body.data as { id: string; time_zone: string | null }[];
    expect(listed.find((m) => m.id === people.erin.id)?.time_zone).toBe('Asia/Kolkata');
    expect(listed.find((m) => m.id === people.hm.id)?.time_zone).toBeNull();
    // Only their own: a member's zone is not another's to set, and a token cannot set one.
    expect((await stack.call('GET', '/api/session', as('alice'))).body.data.user.time_zone).toBeNull();
    expect((await stack.call('PUT', '/api/account/time-zone', { token, body: { time_zone: 'UTC' } })).status).toBe(401);
    const cleared = await setZone('erin', null);
    expect([cleared.status, cleared.body]).toEqual([200, { data: { time_zone: null } }]);
    expect((await stack.call('GET', '/api/session', as('erin'))).body.data.user.time_zone).toBeNull();
  });

  it('reminds each interviewer at 9:00 in their own zone, set before or after the booking, once: Tokyo, Berlin, New York changed to Los Angeles', async () => {
    expect((await setZone('dave', 'America/New_York')).status).toBe(200);
    // Tuesday 2030-02-12, 14:00-15:00 in Berlin (13:00-14:00 UTC).
    const cid = await candidate();
    const res = await stack.call('POST', `/api/v1/candidates/${cid}/interviews`, {
      token,
      body: {
        step_id: stepId,
        start: '2030-02-12T13:00:00.000Z',
        end: '2030-02-12T14:00:00.000Z',
        time_zone: 'Europe/Berlin',
        interviewers: [people.carol.id, people.dave.id, people.erin.id],
        allow_conflicts: true,
      },
    });
    expect(res.status, res.text).toBe(201);
    // After the booking: Carol moves to Tokyo (her 9:00 comes before Berlin's), Dave to Los Angeles
    // (after New York's); Erin keeps none and is reminded in the interview's zone.
    expect((await setZone('carol', 'Asia/Tokyo')).status).toBe(200);
    expect((await setZone('dave', 'America/Los_Angeles')).status).toBe(200);
    const mine = async (who: Who) => (await mailTo(who)).filter((m) => m.body.text?.includes('February 2030'));
    const counts = async () => [(await mine('carol')).length, (await mine('dave')).length, (await mine('erin')).length];
    const run = (iso: string) => runInterviewFollowUps(ms(iso));

    await run('2030-02-12T23:59:59.000Z');
    expect(await counts()).toEqual([0, 0, 0]);
    // Wednesday 9:00 in Tokyo, twice at once: one email.
    await Promise.all([run('2030-02-13T00:00:00.000Z'), run('2030-02-13T00:00:00.000Z')]);
    expect(await counts()).toEqual([1, 0, 0]);
    const [tokyo] = await mine('carol');
    expect(tokyo!.body.text).toContain('Tuesday, 12 February 2030 at 22:00 (Asia/Tokyo)');
    await run('2030-02-13T07:59:59.000Z');
    expect(await counts()).toEqual([1, 0, 0]);
    // 9:00 in Berlin, for Erin.
    await run('2030-02-13T08:00:00.000Z');
    expect(await counts()).toEqual([1, 0, 1]);
    expect((await mine('erin'))[0]!.body.text).toContain('Tuesday, 12 February 2030 at 14:00 (Europe/Berlin)');
    // 9:00 in New York is no longer Dave's time.
    await run('2030-02-13T14:00:00.000Z');
    expect(await counts()).toEqual([1, 0, 1]);
    await run('2030-02-13T16:59:59.000Z');
    expect(await counts()).toEqual([1, 0, 1]);
    // 9:00 in Los Angeles.
    await run('2030-02-13T17:00:00.000Z');
    expect(await counts()).toEqual([1, 1, 1]);
    expect((await mine('dave'))[0]!.body.text).toContain('Tuesday, 12 February 2030 at 05:00 (America/Los_Angeles)');
    // Never twice, whatever runs later.
    await run('2030-02-14T17:00:00.000Z');
    await run('2030-02-18T17:00:00.000Z');
    expect(await counts()).toEqual([1, 1, 1]);
  });
});

describe('feedback_overdue', () => {
  it('the team reads it on the interview once the reminder time passed with a scorecard missing; an interviewer does not', async () => {
    // A week before today: its reminder time has passed.
    const start = new Date(Date.now() - 7 * 86_400_000);
    start.setUTCMinutes(0, 0, 0);
    const iv = await schedule(await candidate(), start.toISOString(), new Date(start.getTime() + 3_600_000).toISOString());
    const read = async (who: Who) => (await stack.call('GET', `/api/interviews/${iv}`, as(who))).body.data;
    for (const who of ['admin', 'recruiter', 'hm'] as const) expect((await read(who)).feedback_overdue, who).toBe(true);
    expect((await stack.call('GET', `/api/v1/interviews/${iv}`, { token })).body.data.feedback_overdue).toBe(true);
    expect(await read('alice')).not.toHaveProperty('feedback_overdue');
    expect((await stack.call('POST', `/api/interviews/${iv}/scorecards`, as('alice', { overall: 'yes' }))).status).toBe(201);
    expect((await read('recruiter')).feedback_overdue).toBe(true);
    expect((await stack.call('POST', `/api/interviews/${iv}/scorecards`, as('bob', { overall: 'no' }))).status).toBe(201);
    expect((await read('recruiter')).feedback_overdue).toBe(false);
    // One not yet due.
    const coming = await schedule(await candidate(), '2030-03-04T09:00:00.000Z', '2030-03-04T10:00:00.000Z');
    expect((await stack.call('GET', `/api/interviews/${coming}`, as('hm'))).body.data.feedback_overdue).toBe(false);
  });
});
