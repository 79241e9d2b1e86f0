/**
 * Interviews through the token API and the console's twins: scheduling on a plan step (defaults,
 * members, times), the external event id, conflicts by instant across offsets, rescheduling and
 * cancelling with their sequence and bookings, the reads and their filters, who sees what (roles,
 * the interviewer's own, the hiring manager's team, another workspace), the stage follow and the
 * setting that turns it off, the events (ids, times, interviewer ids only), and the calls of
 * "my interviews" for an interviewer with 200 interviews.
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interview } from '../../lib/api/interviews';
import { ddb } from '../../lib/store/client';
import { interviewItem } from '../../lib/store/interviews';
import { keys } from '../../lib/store/table';
import type { WebhookEvent } from '../../lib/webhooks/events';
import { dynamodbEndpoint } from '../helpers/dynamodb-endpoint';
import { collectEvents, PASSWORD, recordDynamoDbCommands, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { signedInMembers } from '../helpers/people';
import { until } from '../helpers/until';

let stack: Stack;
let tenant: TestTenant;
let other: TestTenant;
let token: string;
let reqId: string;
let otherReq: string;
let stepId: string;
let poller: { stop(): Promise<void> };
const events: WebhookEvent[] = [];
const sent: string[] = [];
let counting = false;
type Who = 'admin' | 'recruiter' | 'hm' | 'alice' | 'bob' | 'carol';
const people: Record<Who, { id: string; cookie: string }> = {} as never;

const as = (who: Who, body?: unknown) => ({ headers: { Cookie: people[who].cookie }, ...(body !== undefined && { body }) });

beforeAll(async () => {
  stack = await startStack({ stream: true, authorizerCacheTtlSeconds: 3600 });
  poller = await collectEvents(stack.tableName, dynamodbEndpoint(), events);
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
  const req = async (title: string, team: object) => {
    const res = await stack.call('POST', '/api/v1/requisitions', { token, body: { title, ...team } });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  reqId = await req('Backend Engineer', { hiring_manager_ids: [people.hm.id] });
  otherReq = await req('Data Engineer', {});
  for (const id of [reqId, otherReq]) {
    const plan = await stack.call('PUT', `/api/v1/requisitions/${id}/interview-plan`, {
      token,
      body: {
        steps: [
          {
            name: 'Technical interview',
            stage: 'interview_scheduled',
            duration_minutes: 60,
            interviewers: [people.alice.id, people.bob.id],
          },
        ],
      },
    });
    expect(plan.status, plan.text).toBe(200);
    if (id === reqId) stepId = plan.body.data.steps[0].id;
  }
  await recordDynamoDbCommands(sent, () => counting);
}, 120_000);
afterAll(async () => {
  await poller?.stop();
  await stack?.close();
});

async function candidate(req = reqId) {
  const n = randomUUID().slice(0, 8);
  const res = await stack.call('POST', '/api/v1/candidates', {
    token,
    body: { name: `Interview ${n}`, email: `iv-${n}@example.com`, req_id: req },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}
let day = 0;
/** A day of its own for each test, so their bookings never meet. */
const freshDay = () => `2027-0${1 + Math.floor(day / 28)}-${String(1 + (day++ % 28)).padStart(2, '0')}`;

const schedule = (cid: string, body: Record<string, unknown>, t = token) =>
  stack.call('POST', `/api/v1/candidates/${cid}/interviews`, { token: t, body: { step_id: stepId, time_zone: 'Europe/Berlin', ...body } });

describe('scheduling', () => {
  it('schedules on a plan step with its default interviewers, and moves the candidate to interview_scheduled', async () => {
    const cid = await candidate();
    const d = freshDay();
    const res = await schedule(cid, { start: `${d}T10:00:00+01:00`, end: `${d}T11:00:00+01:00`, location: 'https://meet.example.com/abc' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      candidate_id: cid,
      req_id: reqId,
      step_id: stepId,
      step_name: 'Technical interview',
      start: `${d}T09:00:00.000Z`,
      end: `${d}T10:00:00.000Z`,
      time_zone: 'Europe/Berlin',
      interviewers: [people.alice.id, people.bob.id],
      location: 'https://meet.example.com/abc',
      external_event_id: null,
      status: 'scheduled',
      sequence: 0,
      invite_candidate: false,
      created_at: expect.any(String),
      updated_at: res.body.data.created_at,
    });
    // The read adds feedback_overdue for whoever reads every scorecard (not due before the
    // interview), and the step's kit and scorecard template as the plan holds them (none written here).
    expect((await stack.call('GET', `/api/v1/interviews/${res.body.data.id}`, { token })).body.data).toEqual({
      ...res.body.data,
      feedback_overdue: false,
      kit: '',
      scorecard_template: { attributes: [], questions: [] },
    });
    const cand = await stack.call('GET', `/api/v1/candidates/${cid}`, { token });
    expect(cand.body.data.stage).toBe('interview_scheduled');
  });

  it('answers the interview it made when the external event id comes again (200), without a second one', async () => {
    const cid = await candidate();
    const d = freshDay();
    const body = {
      start: `${d}T09:00:00Z`,
      end: `${d}T09:45:00Z`,
      interviewers: [people.carol.id],
      external_event_id: `gcal-${randomUUID()}`,
    };
    const first = await schedule(cid, body);
    expect(first.status, first.text).toBe(201);
    const again = await schedule(cid, { ...body, start: `${d}T15:00:00Z`, end: `${d}T16:00:00Z` });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    const list = await stack.call('GET', `/api/v1/interviews?candidate=${cid}`, { token });
    expect(list.body.data.map((i: Interview) => i.id)).toEqual([first.body.data.id]);
  });

  it('refuses a step not in the plan, a non-member, a bad time zone and an end before the start, naming the field', async () => {
    const cid = await candidate();
    const d = freshDay();
    const ok = { start: `${d}T09:00:00Z`, end: `${d}T10:00:00Z` };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, step_id: randomUUID() }, 'step_id'],
      [{ ...ok, interviewers: [randomUUID()] }, 'interviewers[0]'],
      [{ ...ok, time_zone: 'Mars/Olympus' }, 'time_zone'],
      [{ ...ok, end: `${d}T08:00:00Z` }, 'end'],
      [{ ...ok, start: 'tomorrow' }, 'start'],
    ];
    for (const [body, field] of cases) {
      const res = await schedule(cid, body);
      expect(res.status, `${field}: ${res.text}`).toBe(400);
      expect(res.body.field).toBe(field);
    }
    expect((await schedule(randomUUID(), ok)).status).toBe(404);
    // A candidate on another requisition: the step is not of their plan.
    expect((await schedule(await candidate(otherReq), ok)).body.field).toBe('step_id');
  });
});

describe('conflicts', () => {
  it('refuses an interviewer booked at that instant, whatever the offset, naming the interview; allow_conflicts books anyway', async () => {
    const [c1, c2] = [await candidate(), await candidate()];
    const d = freshDay();
    const first = await schedule(c1, { start: `${d}T14:00:00Z`, end: `${d}T15:00:00Z`, interviewers: [people.carol.id, people.bob.id] });
    expect(first.status).toBe(201);
    // 10:30 in New York (EST, -05:00) is 15:30 UTC... and 09:30 is 14:30: inside Bob's booking.
    const clash = await schedule(c2, {
      start: `${d}T09:30:00-05:00`,
      end: `${d}T10:30:00-05:00`,
      interviewers: [people.alice.id, people.bob.id],
    });
    expect(clash.status, clash.text).toBe(409);
    expect(clash.body).toMatchObject({ code: 'conflict', field: 'interviewers[1]', existing_id: first.body.data.id });
    expect(clash.body.error).toContain(first.body.data.id);
    // Back to back is no conflict.
    expect((await schedule(c2, { start: `${d}T15:00:00Z`, end: `${d}T16:00:00Z`, interviewers: [people.bob.id] })).status).toBe(201);
    const forced = await schedule(c2, {
      start: `${d}T14:30:00Z`,
      end: `${d}T15:30:00Z`,
      interviewers: [people.alice.id, people.bob.id],
      allow_conflicts: true,
    });
    expect(forced.status).toBe(201);
  });
});

describe('rescheduling and cancelling', () => {
  it('a reschedule moves the bookings and raises the sequence; a cancel frees them; a cancelled interview stays cancelled', async () => {
    const cid = await candidate();
    const d = freshDay();
    const made = (await schedule(cid, { start: `${d}T09:00:00Z`, end: `${d}T10:00:00Z`, interviewers: [people.carol.id] })).body.data;
    const moved = await stack.call('PATCH', `/api/v1/interviews/${made.id}`, {
      token,
      body: { start: `${d}T13:00:00Z`, end: `${d}T14:00:00Z`, interviewers: [people.carol.id, people.bob.id] },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data).toMatchObject({ start: `${d}T13:00:00.000Z`, sequence: 1, interviewers: [people.carol.id, people.bob.id] });
    const carols = await stack.call('GET', `/api/interviews?from=${d}T00:00:00Z&to=${d}T23:59:59Z`, as('carol'));
    expect(carols.body.data.map((i: Interview) => [i.id, i.start])).toEqual([[made.id, `${d}T13:00:00.000Z`]]);
    // The old slot is free again; the new one is taken.
    const c2 = await candidate();
    expect((await schedule(c2, { start: `${d}T09:00:00Z`, end: `${d}T10:00:00Z`, interviewers: [people.carol.id] })).status).toBe(201);
    expect((await schedule(c2, { start: `${d}T13:30:00Z`, end: `${d}T14:30:00Z`, interviewers: [people.carol.id] })).status).toBe(409);

    const cancelled = await stack.call('DELETE', `/api/v1/interviews/${made.id}`, { token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', sequence: 2 });
    expect((await stack.call('DELETE', `/api/v1/interviews/${made.id}`, { token })).body.data.sequence).toBe(2);
    const after = await stack.call('GET', `/api/interviews?from=${d}T12:00:00Z&to=${d}T23:59:59Z`, as('carol'));
    expect(after.body.data).toEqual([]);
    const patch = await stack.call('PATCH', `/api/v1/interviews/${made.id}`, { token, body: { location: 'Room 4' } });
    expect(patch.status).toBe(409);
    // The candidate's list keeps it, cancelled.
    const list = await stack.call('GET', `/api/v1/interviews?candidate=${cid}`, { token });
    expect(list.body.data.map((i: Interview) => i.status)).toEqual(['cancelled']);
  });

  it('sends interview.scheduled, .updated and .cancelled with ids, times and interviewer ids only', async () => {
    const cid = await candidate();
    const d = freshDay();
    const made = (
      await schedule(cid, { start: `${d}T09:00:00Z`, end: `${d}T10:00:00Z`, interviewers: [people.carol.id], location: 'Secret Room' })
    ).body.data;
    await stack.call('PATCH', `/api/v1/interviews/${made.id}`, { token, body: { start: `${d}T11:00:00Z`, end: `${d}T12:00:00Z` } });
    await stack.call('DELETE', `/api/v1/interviews/${made.id}`, { token });
    const mine = await until('the three interview events', () => {
      const found = events.filter((e) => e.type.startsWith('interview.') && e.data.interviewId === made.id);
      return found.length === 3 && found;
    });
    expect(mine.map((e) => [e.type, e.data.sequence, e.data.start])).toEqual([
      ['interview.scheduled', 0, `${d}T09:00:00.000Z`],
      ['interview.updated', 1, `${d}T11:00:00.000Z`],
      ['interview.cancelled', 2, `${d}T11:00:00.000Z`],
    ]);
    expect(Object.keys(mine[0]!.data).sort()).toEqual(
      [
        'interviewId',
        'candidateId',
        'reqId',
        'stepId',
        'start',
        'end',
        'timeZone',
        'interviewerIds',
        'sequence',
        'status',
        'changedAt',
      ].sort(),
    );
    expect(JSON.stringify(mine)).not.toContain('Secret Room');
    expect(JSON.stringify(mine)).not.toContain('Interview ');
  });
});

describe('reading and who sees what', () => {
  let ivOnReq: Interview;
  let ivOnOther: Interview;
  beforeAll(async () => {
    const d = freshDay();
    ivOnReq = (await schedule(await candidate(), { start: `${d}T09:00:00Z`, end: `${d}T10:00:00Z`, interviewers: [people.alice.id] })).body
      .data;
    const otherStep = (await stack.call('GET', `/api/v1/requisitions/${otherReq}/interview-plan`, { token })).body.data.steps[0].id;
    ivOnOther = (
      await stack.call('POST', `/api/v1/candidates/${await candidate(otherReq)}/interviews`, {
        token,
        body: { step_id: otherStep, time_zone: 'UTC', start: `${d}T11:00:00Z`, end: `${d}T12:00:00Z`, interviewers: [people.bob.id] },
      })
    ).body.data;
  });

  it('filters by requisition, candidate and time, and pages with a cursor', async () => {
    const day = ivOnReq.start.slice(0, 10);
    const all = await stack.call('GET', `/api/v1/interviews?from=${day}T00:00:00Z&to=${day}T23:00:00Z`, { token });
    expect(all.body.data.map((i: Interview) => i.id)).toEqual([ivOnReq.id, ivOnOther.id]);
    const byReq = await stack.call('GET', `/api/v1/interviews?requisition=${otherReq}&from=${day}T00:00:00Z&to=${day}T23:00:00Z`, {
      token,
    });
    expect(byReq.body.data.map((i: Interview) => i.id)).toEqual([ivOnOther.id]);
    const first = await stack.call('GET', `/api/v1/interviews?from=${day}T00:00:00Z&to=${day}T23:00:00Z&limit=1`, { token });
    expect(first.body.data.map((i: Interview) => i.id)).toEqual([ivOnReq.id]);
    const next = await stack.call(
      'GET',
      `/api/v1/interviews?from=${day}T00:00:00Z&to=${day}T23:00:00Z&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { token },
    );
    expect(next.status, next.text).toBe(200);
    expect(next.body.data.map((i: Interview) => i.id)).toEqual([ivOnOther.id]);
    const foreign = await stack.call('GET', `/api/v1/interviews?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`, { token });
    expect(foreign.status).toBe(400);
  });

  it('an interviewer sees their own interviews only; another member’s list is refused', async () => {
    const day = ivOnReq.start.slice(0, 10);
    const q = `from=${day}T00:00:00Z&to=${day}T23:00:00Z`;
    expect((await stack.call('GET', `/api/interviews?${q}`, as('alice'))).body.data.map((i: Interview) => i.id)).toEqual([ivOnReq.id]);
    expect((await stack.call('GET', `/api/interviews/${ivOnReq.id}`, as('alice'))).status).toBe(200);
    expect((await stack.call('GET', `/api/interviews/${ivOnOther.id}`, as('alice'))).status).toBe(404);
    expect((await stack.call('GET', `/api/interviews?${q}&interviewer=${people.bob.id}`, as('alice'))).status).toBe(400);
    expect((await stack.call('GET', `/api/interviews?${q}`, as('carol'))).body.data).toEqual([]);
    // Interviewers and hiring managers schedule nothing.
    for (const who of ['alice', 'hm'] as const)
      expect((await stack.call('POST', `/api/candidates/${ivOnReq.candidate_id}/interviews`, as(who, {}))).status).toBe(403);
  });

  it('a hiring manager sees the interviews of their requisitions only', async () => {
    const day = ivOnReq.start.slice(0, 10);
    const res = await stack.call('GET', `/api/interviews?from=${day}T00:00:00Z&to=${day}T23:00:00Z`, as('hm'));
    expect(res.body.data.map((i: Interview) => i.id)).toEqual([ivOnReq.id]);
    expect((await stack.call('GET', `/api/interviews/${ivOnOther.id}`, as('hm'))).status).toBe(404);
  });

  it('another workspace reaches none of them', async () => {
    const theirs = await other.token(['*']);
    expect((await stack.call('GET', `/api/v1/interviews/${ivOnReq.id}`, { token: theirs })).status).toBe(404);
    expect((await stack.call('PATCH', `/api/v1/interviews/${ivOnReq.id}`, { token: theirs, body: { location: 'x' } })).status).toBe(404);
    expect((await stack.call('DELETE', `/api/v1/interviews/${ivOnReq.id}`, { token: theirs })).status).toBe(404);
    expect((await stack.call('GET', `/api/v1/interviews?candidate=${ivOnReq.candidate_id}`, { token: theirs })).body.data).toEqual([]);
  });

  it('a token needs interviews:write to schedule and interviews:read to read', async () => {
    const reader = await tenant.token(['interviews:read']);
    expect((await stack.call('GET', `/api/v1/interviews/${ivOnReq.id}`, { token: reader })).status).toBe(200);
    const refused = await stack.call('DELETE', `/api/v1/interviews/${ivOnReq.id}`, { token: reader });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('missing_scope');
  });
});

describe('the stage follow and its setting', () => {
  it('leaves the candidate where they are when the workspace turned it off', async () => {
    const off = await stack.call('PUT', '/api/settings/pipeline', as('admin', { stuck_days: {}, auto_interview_stages: false }));
    expect(off.status, off.text).toBe(200);
    expect((await stack.call('GET', '/api/settings/pipeline', as('admin'))).body.data.auto_interview_stages).toBe(false);
    const cid = await candidate();
    const d = freshDay();
    expect((await schedule(cid, { start: `${d}T09:00:00Z`, end: `${d}T10:00:00Z`, interviewers: [people.carol.id] })).status).toBe(201);
    expect((await stack.call('GET', `/api/v1/candidates/${cid}`, { token })).body.data.stage).toBe('applied');
    await stack.call('PUT', '/api/settings/pipeline', as('admin', { stuck_days: {}, auto_interview_stages: true }));
  });
});

describe('DynamoDB calls', () => {
  it('scheduling with 4 interviewers: the reads side by side, a Query per interviewer, one transaction', async () => {
    const cid = await candidate();
    const d = freshDay();
    const panel = [people.alice.id, people.bob.id, people.carol.id, people.recruiter.id];
    // The first interview moves the candidate; the second, counted, moves nobody.
    expect((await schedule(cid, { start: `${d}T08:00:00Z`, end: `${d}T09:00:00Z`, interviewers: [people.carol.id] })).status).toBe(201);
    sent.length = 0;
    counting = true;
    const res = await schedule(cid, { start: `${d}T10:00:00Z`, end: `${d}T11:00:00Z`, interviewers: panel });
    counting = false;
    expect(res.status, res.text).toBe(201);
    expect(sent.sort()).toEqual(
      [
        'GetItemCommand',
        'GetItemCommand',
        'BatchGetItemCommand',
        'QueryCommand',
        ...panel.map(() => 'QueryCommand'),
        'TransactWriteItemsCommand',
      ].sort(),
    );
  });

  it('"my interviews" for an interviewer with 200 interviews is one Query', async () => {
    const dave = await tenant.user('interviewer');
    const items = Array.from({ length: 200 }, (_, i) => {
      const start = new Date(Date.UTC(2028, 0, 1, 8) + i * 3_600_000).toISOString();
      const iv: Interview = {
        id: randomUUID(),
        candidate_id: randomUUID(),
        req_id: reqId,
        step_id: stepId,
        step_name: 'Technical interview',
        start,
        end: new Date(Date.parse(start) + 3_000_000).toISOString(),
        time_zone: 'UTC',
        interviewers: [dave.id],
        location: null,
        external_event_id: null,
        status: 'scheduled',
        sequence: 0,
        invite_candidate: false,
        created_at: start,
        updated_at: start,
      };
      return { ...interviewItem(tenant.id, iv), ...keys.booking(tenant.id, dave.id, iv.start, iv.id), type: 'interview_booking' };
    });
    for (let i = 0; i < items.length; i += 25)
      await ddb.send(
        new BatchWriteCommand({ RequestItems: { [stack.tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }),
      );
    const cookie = await stack.login(dave.email, PASSWORD);
    const path = '/api/interviews?limit=200';
    await stack.call('GET', path, { headers: { Cookie: cookie } }); // warm the authorizer cache
    sent.length = 0;
    counting = true;
    const res = await stack.call('GET', path, { headers: { Cookie: cookie } });
    counting = false;
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(200);
    // The Query, and the session's own read (the session authorizer's): at most two calls.
    expect(sent.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });
});
