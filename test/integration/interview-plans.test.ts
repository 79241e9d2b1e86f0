/**
 * Interview plans through the token API and the console's twins: the whole plan in one document
 * with stable step ids, the copy from another requisition, who reads and who writes it (roles,
 * scopes, the hiring manager's team), workspace isolation, the audit record and the calls a read makes.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAudit } from '../helpers/audit';
import { PASSWORD, recordDynamoDbCommands, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { signedInMembers } from '../helpers/people';

let stack: Stack;
let tenant: TestTenant;
let other: TestTenant;
let token: string;
let reqId: string;
let hiddenReq: string;
const people: Record<'recruiter' | 'hm' | 'interviewer' | 'alice' | 'bob', { id: string; cookie: string }> = {} as never;
const sent: string[] = [];
let counting = false;

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });
const path = (id: string) => `/api/v1/requisitions/${id}/interview-plan`;

beforeAll(async () => {
  stack = await startStack();
  [tenant, other] = [await stack.tenant(), await stack.tenant()];
  token = await tenant.token(['*']);
  Object.assign(
    people,
    await signedInMembers(stack, tenant, {
      recruiter: 'recruiter',
      hm: 'hiring_manager',
      interviewer: 'interviewer',
      alice: 'interviewer',
      bob: 'interviewer',
    }),
  );
  const req = async (title: string, team: object) => {
    const res = await stack.call('POST', '/api/v1/requisitions', { token, body: { title, ...team } });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  reqId = await req('Backend Engineer', { hiring_manager_ids: [people.hm.id] });
  hiddenReq = await req('Hidden Engineer', {});
  await recordDynamoDbCommands(sent, () => counting);
});
afterAll(() => stack.close());

const STEPS = () => [
  {
    name: 'Technical interview',
    stage: 'interview_scheduled',
    duration_minutes: 60,
    interviewers: [people.alice.id, people.bob.id],
    kit: '## Prepare\n\n- Read the CV\n- Ask about *one* system they built',
    scorecard: { attributes: [{ name: 'System design' }, { name: 'Coding' }], questions: ['What would you change in their design?'] },
  },
  { name: 'Culture', stage: 'interview_scheduled', duration_minutes: 45 },
];

describe('the plan as one document', () => {
  it('is empty before it is written, then holds the steps with ids, defaults filled in', async () => {
    const empty = await stack.call('GET', path(hiddenReq), { token });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual({ requisition_id: hiddenReq, steps: [], version: 0, updated_at: null });

    const put = await stack.call('PUT', path(reqId), { token, body: { steps: STEPS() } });
    expect(put.status, put.text).toBe(200);
    const plan = put.body.data;
    expect(plan).toMatchObject({ requisition_id: reqId, version: 1, updated_at: expect.any(String) });
    expect(plan.steps).toEqual([
      { id: expect.any(String), ...STEPS()[0] },
      { id: expect.any(String), ...STEPS()[1], interviewers: [], kit: '', scorecard: { attributes: [], questions: [] } },
    ]);
    expect((await stack.call('GET', path(reqId), { token })).body.data).toEqual(plan);
  });

  it('keeps the id of each step named, moves it, drops the steps left out and gives new ones new ids', async () => {
    const before = (await stack.call('GET', path(reqId), { token })).body.data;
    const [tech, culture] = before.steps;
    const put = await stack.call('PUT', path(reqId), {
      token,
      body: {
        steps: [
          { ...culture, name: 'Values' },
          { name: 'Hiring manager chat', stage: 'interviewed', duration_minutes: 30 },
        ],
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data.version).toBe(before.version + 1);
    expect(put.body.data.steps.map((s: { id: string; name: string }) => [s.id === culture.id, s.name])).toEqual([
      [true, 'Values'],
      [false, 'Hiring manager chat'],
    ]);
    expect(put.body.data.steps.map((s: { id: string }) => s.id)).not.toContain(tech.id);
    // Back to the two steps the other tests expect (the technical one with a new id).
    expect((await stack.call('PUT', path(reqId), { token, body: { steps: STEPS() } })).status).toBe(200);
  });

  it('refuses an unknown step id, a non-member interviewer and bad fields with 400 naming the field', async () => {
    const bad = async (steps: unknown, field: string) => {
      const res = await stack.call('PUT', path(reqId), { token, body: { steps } });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_field', field });
    };
    await bad([{ ...STEPS()[1], id: randomUUID() }], 'steps[0].id');
    await bad([{ ...STEPS()[1], interviewers: [randomUUID()] }], 'steps[0].interviewers[0]');
    await bad([{ ...STEPS()[1], stage: 'placed' }], 'steps[0].stage');
    await bad([{ ...STEPS()[1], duration_minutes: 2 }], 'steps[0].duration_minutes');
    await bad([{ ...STEPS()[1], kit: 'bell \u0007' }], 'steps[0].kit');
    const both = await stack.call('PUT', path(reqId), { token, body: { steps: [], copy_from: hiddenReq } });
    expect(both.status).toBe(400);
    expect(both.body.error).toBe('body must hold exactly one of steps, copy_from');
  });

  it('copies another requisition’s plan with new step ids; a missing source is a 404 naming copy_from', async () => {
    const source = (await stack.call('GET', path(reqId), { token })).body.data;
    const copy = await stack.call('PUT', path(hiddenReq), { token, body: { copy_from: reqId } });
    expect(copy.status, copy.text).toBe(200);
    expect(copy.body.data.steps.map(({ id: _, ...s }: { id: string }) => s)).toEqual(
      source.steps.map(({ id: _, ...s }: { id: string }) => s),
    );
    for (const s of copy.body.data.steps) expect(source.steps.map((x: { id: string }) => x.id)).not.toContain(s.id);
    const missing = await stack.call('PUT', path(hiddenReq), { token, body: { copy_from: randomUUID() } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'not_found', field: 'copy_from' });
  });

  it('answers 404 for a requisition that does not exist, and writes nothing for it', async () => {
    const id = randomUUID();
    expect((await stack.call('PUT', path(id), { token, body: { steps: STEPS() } })).status).toBe(404);
    expect((await stack.call('GET', path(id), { token })).status).toBe(404);
  });

  it('records the change in the audit log with the step names', async () => {
    await settleAudit();
    const res = await stack.call('GET', `/api/audit?target=${reqId}&limit=100`, as(await adminCookie()));
    expect(res.status, res.text).toBe(200);
    const mine = res.body.data.filter((r: { action: string }) => r.action === 'requisition.interview_plan_updated');
    expect(mine.length).toBeGreaterThanOrEqual(3);
    expect(mine.at(-1).changes).toEqual([{ field: 'interview_plan', before: [], after: ['Technical interview', 'Culture'] }]);
  });
});

async function adminCookie() {
  const admin = await tenant.user('admin');
  return stack.login(admin.email, PASSWORD);
}

describe('who reads and writes a plan', () => {
  it('a hiring manager reads the plan of their requisition but not of another, and changes neither', async () => {
    expect((await stack.call('GET', `/api/requisitions/${reqId}/interview-plan`, as(people.hm.cookie))).status).toBe(200);
    expect((await stack.call('GET', `/api/requisitions/${hiddenReq}/interview-plan`, as(people.hm.cookie))).status).toBe(404);
    const put = await stack.call('PUT', `/api/requisitions/${reqId}/interview-plan`, as(people.hm.cookie, { steps: [] }));
    expect(put.status).toBe(403);
  });

  it('an interviewer neither reads nor changes a plan by this route', async () => {
    expect((await stack.call('GET', `/api/requisitions/${reqId}/interview-plan`, as(people.interviewer.cookie))).status).toBe(403);
    expect(
      (await stack.call('PUT', `/api/requisitions/${reqId}/interview-plan`, as(people.interviewer.cookie, { steps: [] }))).status,
    ).toBe(403);
  });

  it('a recruiter writes it through the console twin; a token needs requisitions:write to', async () => {
    const put = await stack.call('PUT', `/api/requisitions/${hiddenReq}/interview-plan`, as(people.recruiter.cookie, { steps: STEPS() }));
    expect(put.status, put.text).toBe(200);
    const reader = await tenant.token(['requisitions:read']);
    expect((await stack.call('GET', path(hiddenReq), { token: reader })).status).toBe(200);
    const refused = await stack.call('PUT', path(hiddenReq), { token: reader, body: { steps: [] } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('missing_scope');
  });

  it('another workspace reaches neither the plan nor a copy of it', async () => {
    const theirs = await other.token(['*']);
    expect((await stack.call('GET', path(reqId), { token: theirs })).status).toBe(404);
    const otherReq = await stack.call('POST', '/api/v1/requisitions', { token: theirs, body: { title: 'Theirs' } });
    const copy = await stack.call('PUT', path(otherReq.body.data.id), { token: theirs, body: { copy_from: reqId } });
    expect(copy.status).toBe(404);
    expect(copy.body.field).toBe('copy_from');
  });
});

describe('DynamoDB calls', () => {
  it('a read is one BatchGetItem; a write reads the members, the plan, then one transaction', async () => {
    await stack.call('GET', path(reqId), { token }); // warm the authorizer cache
    counting = true;
    sent.length = 0;
    expect((await stack.call('GET', path(reqId), { token })).status).toBe(200);
    expect(sent).toEqual(['BatchGetItemCommand']);
    sent.length = 0;
    expect((await stack.call('PUT', path(reqId), { token, body: { steps: STEPS() } })).status).toBe(200);
    counting = false;
    expect(sent.sort()).toEqual(['BatchGetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand']);
  });
});
