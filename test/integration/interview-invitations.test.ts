/**
 * Interview invitations through the real path: the API writes the interview, the stream's fan-out
 * queues the change, the invitation worker sends one email per recipient through the local SES
 * (dev/ses.ts, read back from its store), as `npm start` runs it. A schedule, a reschedule that
 * changes the panel and a cancel: one UID, a growing SEQUENCE, REQUEST then CANCEL, the times in
 * the interview's zone; the candidate only when invited; a message delivered twice sends nothing
 * twice; the sent marks hold no address.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_MAIL_FROM } from '../../dev/files-and-mail';
import { type LocalSes, sentMail, startLocalSes, type StoredMail } from '../../dev/ses';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';
import { until } from '../helpers/until';
import { keys } from '../../lib/store/table';
import { ddb } from '../../lib/store/client';
import { setUserTimeZone } from '../../lib/store/users';

let ses: LocalSes;
let stack: Stack;
let tenant: TestTenant;
let token: string;
let reqId: string;
let stepId: string;
const panel: Record<'alice' | 'bob' | 'carol', { id: string; email: string }> = {} as never;

beforeAll(async () => {
  ses = await startLocalSes();
  // What npm start gives its functions (dev/files-and-mail.ts), before the pipeline loads them.
  process.env.SES_ENDPOINT = ses.endpoint;
  process.env.MAIL_FROM = LOCAL_MAIL_FROM;
  stack = await startStack({ webhooks: {} });
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  for (const who of ['alice', 'bob', 'carol'] as const) panel[who] = await tenant.user('interviewer');
  const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Backend Engineer' } });
  reqId = req.body.data.id;
  const plan = await stack.call('PUT', `/api/v1/requisitions/${reqId}/interview-plan`, {
    token,
    body: {
      steps: [
        { name: 'Technical interview', stage: 'interview_scheduled', duration_minutes: 60, interviewers: [panel.alice.id, panel.bob.id] },
      ],
    },
  });
  expect(plan.status, plan.text).toBe(200);
  stepId = plan.body.data.steps[0].id;
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await ses?.stop();
  delete process.env.SES_ENDPOINT;
  delete process.env.MAIL_FROM;
});

async function candidate() {
  const n = randomUUID().slice(0, 8);
  const email = `ada-${n}@home.example`;
  const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: `Ada ${n}`, email, req_id: reqId } });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.data.id as string, name: `Ada ${n}`, email };
}

/** The calendar part of a stored message, parsed by ical.js. */
function calendarOf(m: StoredMail) {
  const part = m.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  expect(part, m.subject).toBeDefined();
  expect(m.attachments.some((a) => a.filename.endsWith('.ics') && !a.contentType.startsWith('text/calendar'))).toBe(true);
  const text = Buffer.from(part!.content, 'base64').toString('utf8');
  const cal = new ICAL.Component(ICAL.parse(text));
  for (const tz of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(tz));
  const vevent = cal.getFirstSubcomponent('vevent')!;
  const ev = new ICAL.Event(vevent);
  return {
    to: m.destination.to.join(),
    method: String(cal.getFirstPropertyValue('method')),
    partType: part!.contentType,
    uid: ev.uid,
    sequence: ev.sequence,
    status: String(vevent.getFirstPropertyValue('status')),
    local: ev.startDate.toString(),
    start: ev.startDate.toJSDate().toISOString(),
    end: ev.endDate.toJSDate().toISOString(),
    text,
  };
}

/** Wait for `n` messages about the interview at `sequence`, and answer them by recipient. */
async function mailOf(interviewId: string, sequence: number, n: number) {
  const found = await until(`${n} invitations of interview ${interviewId} at sequence ${sequence}`, async () => {
    const mine = (await sentMail(ses.endpoint)).map(calendarOf).filter((c) => c.uid.startsWith(interviewId) && c.sequence === sequence);
    return mine.length >= n && mine;
  });
  expect(found).toHaveLength(n);
  return Object.fromEntries(found.map((c) => [c.to, c]));
}

describe('calendar invitations through the local SES', () => {
  it('schedule, reschedule with another panel, cancel: one UID, SEQUENCE 0, 1, 2, REQUEST then CANCEL', async () => {
    const ada = await candidate();
    const made = await stack.call('POST', `/api/v1/candidates/${ada.id}/interviews`, {
      token,
      body: {
        step_id: stepId,
        start: '2027-10-29T10:00:00+02:00',
        end: '2027-10-29T11:00:00+02:00',
        time_zone: 'Europe/Berlin',
        location: 'https://meet.example.com/abc',
        invite_candidate: true,
      },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.invite_candidate).toBe(true);
    const id = made.body.data.id as string;

    const first = await mailOf(id, 0, 3);
    expect(Object.keys(first).sort()).toEqual([panel.alice.email, panel.bob.email, ada.email].sort());
    for (const c of Object.values(first)) {
      expect([c.method, c.status, c.partType]).toEqual(['REQUEST', 'CONFIRMED', 'text/calendar; method=REQUEST; charset=UTF-8']);
      expect(c.uid).toBe(`${id}@talent-pipeline.localhost`);
      expect([c.local, c.start, c.end]).toEqual(['2027-10-29T10:00:00', '2027-10-29T08:00:00.000Z', '2027-10-29T09:00:00.000Z']);
    }
    expect(first[panel.alice.email]!.text).toContain(ada.name);
    // The candidate's invitation names no interviewer.
    expect(first[ada.email]!.text).not.toContain(panel.alice.email);
    expect(first[ada.email]!.text).not.toContain(panel.bob.email);

    // Past the end of summer time: 10:00 in Berlin is 09:00 UTC now. Bob is taken off, Carol added.
    const moved = await stack.call('PATCH', `/api/v1/interviews/${id}`, {
      token,
      body: { start: '2027-11-01T10:00:00+01:00', end: '2027-11-01T11:00:00+01:00', interviewers: [panel.alice.id, panel.carol.id] },
    });
    expect(moved.status, moved.text).toBe(200);
    const second = await mailOf(id, 1, 4);
    expect(Object.fromEntries(Object.entries(second).map(([to, c]) => [to, c.method]))).toEqual({
      [panel.alice.email]: 'REQUEST',
      [panel.carol.email]: 'REQUEST',
      [ada.email]: 'REQUEST',
      [panel.bob.email]: 'CANCEL',
    });
    expect(second[panel.bob.email]!.status).toBe('CANCELLED');
    for (const c of Object.values(second)) {
      expect(c.uid).toBe(`${id}@talent-pipeline.localhost`);
      expect([c.local, c.start]).toEqual(['2027-11-01T10:00:00', '2027-11-01T09:00:00.000Z']);
    }

    const cancelled = await stack.call('DELETE', `/api/v1/interviews/${id}`, { token });
    expect(cancelled.status, cancelled.text).toBe(200);
    const third = await mailOf(id, 2, 3);
    expect(Object.keys(third).sort()).toEqual([panel.alice.email, panel.carol.email, ada.email].sort());
    for (const c of Object.values(third)) {
      expect([c.method, c.status, c.partType]).toEqual(['CANCEL', 'CANCELLED', 'text/calendar; method=CANCEL; charset=UTF-8']);
      expect(c.uid).toBe(`${id}@talent-pipeline.localhost`);
    }
  });

  it('invites only the interviewers unless the candidate is invited; a message delivered again sends nothing twice', async () => {
    const ada = await candidate();
    const made = await stack.call('POST', `/api/v1/candidates/${ada.id}/interviews`, {
      token,
      body: { step_id: stepId, start: '2027-10-30T10:00:00Z', end: '2027-10-30T11:00:00Z', time_zone: 'UTC' },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.invite_candidate).toBe(false);
    const id = made.body.data.id as string;
    const first = await mailOf(id, 0, 2);
    expect(Object.keys(first).sort()).toEqual([panel.alice.email, panel.bob.email].sort());

    const before = (await sentMail(ses.endpoint)).length;
    const { sendInterviewInvitations } = await import('../../lib/domain/interview-invitations');
    expect(
      await sendInterviewInvitations({ v: 1, kind: 'interview_invitation', tenantId: tenant.id, interviewId: id, sequence: 0 }),
    ).toEqual({
      sent: 0,
      failed: 0,
    });
    expect((await sentMail(ses.endpoint)).length).toBe(before);

    // The marks name members by id, never by address.
    const { Item } = await ddb.send(new GetCommand({ TableName: stack.tableName, Key: keys.invitationsSent(tenant.id, id, 0) }));
    expect([...(Item!.sent as Set<string>)].sort()).toEqual([panel.alice.id, panel.bob.id].sort());
    expect(JSON.stringify(Item, (_k, v) => (v instanceof Set ? [...v] : v))).not.toMatch(/@/);
  });

  it("an interviewer with a zone of their own reads the time in it; the calendar part keeps the interview's", async () => {
    const dave = await tenant.user('interviewer');
    expect(await setUserTimeZone(tenant.id, dave.id, 'America/New_York')).toBe(true);
    const ada = await candidate();
    const made = await stack.call('POST', `/api/v1/candidates/${ada.id}/interviews`, {
      token,
      body: {
        step_id: stepId,
        start: '2027-11-02T10:00:00+01:00',
        end: '2027-11-02T11:00:00+01:00',
        time_zone: 'Europe/Berlin',
        interviewers: [panel.alice.id, dave.id],
        allow_conflicts: true,
      },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id as string;
    await mailOf(id, 0, 2);
    const texts = Object.fromEntries(
      (await sentMail(ses.endpoint))
        .filter((m) => m.subject.includes(ada.name))
        .map((m) => [m.destination.to.join(), m.body.text?.split('\n') ?? []]),
    );
    expect(texts[dave.email]).toContain('When: Tuesday, 2 November 2027, 05:00–06:00 (America/New_York)');
    expect(texts[dave.email]).toContain('Booked as: Tuesday, 2 November 2027, 10:00–11:00 (Europe/Berlin)');
    expect(texts[panel.alice.email]).toContain('When: Tuesday, 2 November 2027, 10:00–11:00 (Europe/Berlin)');
    const calendars = await mailOf(id, 0, 2);
    expect([calendars[dave.email]!.local, calendars[dave.email]!.start]).toEqual(['2027-11-02T10:00:00', '2027-11-02T09:00:00.000Z']);
  });
});
