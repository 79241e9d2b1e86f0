/**
 * What a hiring manager and an interviewer see (lib/domain/visibility.ts): one test per rule
 * proves a hidden record is absent from the lists, search, counts, the board, the summaries, and
 * that a direct read or write of it is the 404 of a record that does not exist. The team fields
 * are checked as they are set.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../../lib/store/client';
import { keys } from '../../lib/store/table';
import { PASSWORD, recordDynamoDbCommands, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
let tenant: Awaited<ReturnType<Stack['tenant']>>;
let adminToken: string;
const users: Record<'hm' | 'interviewer' | 'recruiter', { id: string; cookie: string }> = {} as never;
let mine: string; // a requisition the hiring manager is on
let theirs: string; // one they are not on
const cand: Record<'mine' | 'theirs' | 'loose', string> = {} as never;

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });
const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((r) => r.id);

beforeAll(async () => {
  stack = await startStack();
  const t = await stack.tenant();
  tenant = t;
  adminToken = await t.token(['*']);
  for (const [key, role] of [
    ['hm', 'hiring_manager'],
    ['interviewer', 'interviewer'],
    ['recruiter', 'recruiter'],
  ] as const) {
    const u = await t.user(role);
    users[key] = { id: u.id, cookie: await stack.login(u.email, PASSWORD) };
  }
  const req = async (title: string, team: object) => {
    const res = await stack.call('POST', '/api/v1/requisitions', { token: adminToken, body: { title, ...team } });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  mine = await req('Seen Engineer', { recruiter_id: users.recruiter.id, hiring_manager_ids: [users.hm.id] });
  theirs = await req('Hidden Engineer', { recruiter_id: users.recruiter.id });
  const candidate = async (name: string, reqId?: string) => {
    const res = await stack.call('POST', '/api/v1/candidates', {
      token: adminToken,
      body: { name, phone: '+1 555 0100', ...(reqId && { req_id: reqId }) },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  cand.mine = await candidate('Visible Vera', mine);
  cand.theirs = await candidate('Hidden Hana', theirs);
  cand.loose = await candidate('Loose Lou');
});
afterAll(() => stack.close());

describe('a requisition team', () => {
  it('is answered with the requisition, and names only active members of the workspace (400 with the field)', async () => {
    const got = await stack.call('GET', `/api/v1/requisitions/${mine}`, { token: adminToken });
    expect(got.body.data).toMatchObject({ recruiter_id: users.recruiter.id, hiring_manager_ids: [users.hm.id] });
    const bad = await stack.call('POST', '/api/v1/requisitions', {
      token: adminToken,
      body: { title: 'Bad team', hiring_manager_ids: [users.hm.id, randomUUID()] },
    });
    expect([bad.status, bad.body.field]).toEqual([400, 'hiring_manager_ids[1]']);
    const badOwner = await stack.call('PATCH', `/api/v1/requisitions/${theirs}`, {
      token: adminToken,
      body: { recruiter_id: randomUUID() },
    });
    expect([badOwner.status, badOwner.body.field]).toEqual([400, 'recruiter_id']);
    const tooMany = await stack.call('POST', '/api/v1/requisitions', {
      token: adminToken,
      body: { title: 'Big team', hiring_manager_ids: Array.from({ length: 11 }, () => randomUUID()) },
    });
    expect([tooMany.status, tooMany.body.field]).toEqual([400, 'hiring_manager_ids']);
  });
});

describe('a hiring manager sees only the requisitions they are on and their candidates', () => {
  it('lists, counts, searches and the board hold none of the others', async () => {
    const { cookie } = users.hm;
    const list = await stack.call('GET', '/api/candidates', as(cookie));
    expect([ids(list), list.body.count]).toEqual([[cand.mine], 1]);
    const board = await stack.call('GET', `/api/candidates?req_id=${mine}&stage=applied`, as(cookie));
    expect(ids(board)).toEqual([cand.mine]);
    for (const q of ['Hidden', 'Loose', 'Visible']) {
      const found = await stack.call('GET', `/api/candidates?q=${q}`, as(cookie));
      expect(ids(found), q).toEqual(q === 'Visible' ? [cand.mine] : []);
    }
    const reqs = await stack.call('GET', '/api/requisitions', as(cookie));
    expect([ids(reqs), reqs.body.count]).toEqual([[mine], 1]);
    const overview = await stack.call('GET', '/api/overview', as(cookie));
    expect(overview.body.data.open_requisitions).toBe(1);
    expect(overview.body.data.requisitions.map((r: { id: string }) => r.id)).toEqual([mine]);
    expect(overview.body.data.pipeline.total_active).toBe(1);
    // The admin sees all three.
    expect((await stack.call('GET', '/api/v1/candidates', { token: adminToken })).body.count).toBe(3);
  });

  it('a hidden record read or written directly is a 404, as one that does not exist', async () => {
    const { cookie } = users.hm;
    expect((await stack.call('GET', `/api/candidates/${cand.mine}`, as(cookie))).status).toBe(200);
    for (const path of [`/api/candidates/${cand.theirs}`, `/api/candidates/${cand.loose}`, `/api/requisitions/${theirs}`])
      expect((await stack.call('GET', path, as(cookie))).status, path).toBe(404);
    const board = await stack.call('GET', `/api/candidates?req_id=${theirs}`, as(cookie));
    expect([board.status, board.body.field]).toEqual([404, 'req_id']);
    const move = await stack.call('POST', '/api/pipeline', as(cookie, { candidate_id: cand.theirs, stage: 'ai_screened' }));
    expect(move.status).toBe(404);
    const status = await stack.call('POST', `/api/requisitions/${theirs}/status`, as(cookie, { status: 'on_hold', reason: 'No' }));
    expect(status.status).toBe(404);
    // Their own: moved, and the status changed.
    expect((await stack.call('POST', '/api/pipeline', as(cookie, { candidate_id: cand.mine, stage: 'ai_screened' }))).status).toBe(200);
  });

  it('a token they made sees what they see', async () => {
    const made = await stack.call('POST', '/api/tokens', as(users.hm.cookie, { name: 'hm', scopes: ['candidates:read', 'pipeline:read'] }));
    expect(made.status, made.text).toBe(201);
    const token = made.body.data.token;
    const list = await stack.call('GET', '/api/v1/candidates', { token });
    expect([ids(list), list.body.count]).toEqual([[cand.mine], 1]);
    expect((await stack.call('GET', `/api/v1/candidates/${cand.theirs}`, { token })).status).toBe(404);
    const pipeline = await stack.call('GET', '/api/v1/pipeline', { token });
    expect(pipeline.body.data.total_active).toBe(1);
  });
});

it("a hiring manager's lists cost a fixed number of calls: one Query per status for their requisitions, one per requisition seen", async () => {
  const sent: string[] = [];
  let counting = false;
  await recordDynamoDbCommands(sent, () => counting);
  const count = async (path: string) => {
    sent.length = 0;
    counting = true;
    const res = await stack.call('GET', path, as(users.hm.cookie));
    counting = false;
    expect(res.status, res.text).toBe(200);
    return [...sent].sort();
  };
  const AUTH = 'GetItemCommand'; // the session authorizer's read
  const TEAM = Array(5).fill('QueryCommand'); // one per requisition status
  // The merged list: their requisitions, then one Query on the requisition index for the one they are on.
  expect(await count('/api/candidates')).toEqual([AUTH, ...TEAM, 'QueryCommand'].sort());
  expect(await count('/api/requisitions')).toEqual([AUTH, ...TEAM].sort());
  // The board of one requisition: its read (seen?) and the list as before (its count's read, its column).
  expect(await count(`/api/candidates?req_id=${mine}&stage=applied`)).toEqual(
    [AUTH, 'GetItemCommand', 'GetItemCommand', 'QueryCommand'].sort(),
  );
  // The overview: the counters' read, their requisitions, the stuck Query.
  expect(await count('/api/overview')).toEqual([AUTH, 'BatchGetItemCommand', ...TEAM, 'QueryCommand'].sort());
});

describe('an interviewer sees only the candidates assigned to them: none before an interview', () => {
  it('lists nothing, counts nothing, and reads no candidate', async () => {
    const { cookie } = users.interviewer;
    const list = await stack.call('GET', '/api/candidates', as(cookie));
    expect([ids(list), list.body.count]).toEqual([[], 0]);
    expect(ids(await stack.call('GET', '/api/candidates?q=Visible', as(cookie)))).toEqual([]);
    for (const id of Object.values(cand)) expect((await stack.call('GET', `/api/candidates/${id}`, as(cookie))).status).toBe(404);
    const overview = await stack.call('GET', '/api/overview', as(cookie));
    expect([overview.body.data.open_requisitions, overview.body.data.pipeline.total_active]).toEqual([0, 0]);
  });
});

describe('an interviewer sees exactly the candidates of the interviews they are booked on', () => {
  it('a scheduled interview shows its candidate (never the phone); a cancel hides it again', async () => {
    const { cookie, id } = users.interviewer;
    const plan = await stack.call('PUT', `/api/v1/requisitions/${mine}/interview-plan`, {
      token: adminToken,
      body: { steps: [{ name: 'Screen', stage: 'interview_scheduled', duration_minutes: 30 }] },
    });
    const iv = await stack.call('POST', `/api/v1/candidates/${cand.mine}/interviews`, {
      token: adminToken,
      body: {
        step_id: plan.body.data.steps[0].id,
        start: '2027-02-01T09:00:00Z',
        end: '2027-02-01T09:30:00Z',
        time_zone: 'UTC',
        interviewers: [id],
      },
    });
    expect(iv.status, iv.text).toBe(201);
    const list = await stack.call('GET', '/api/candidates', as(cookie));
    expect([ids(list), list.body.count]).toEqual([[cand.mine], 1]);
    expect(list.body.data[0].phone).toBeNull();
    expect(ids(await stack.call('GET', '/api/candidates?q=Visible', as(cookie)))).toEqual([cand.mine]);
    expect(ids(await stack.call('GET', '/api/candidates?q=Hidden', as(cookie)))).toEqual([]);
    // As if the candidate had applied: the answers are the applicant's own words, not for an interviewer.
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.candidate(tenant.id, cand.mine),
        UpdateExpression: 'SET application = :a',
        ExpressionAttributeValues: {
          ':a': JSON.stringify({
            answers: { years: 4 },
            consent: { accepted: true, text: 'Yes', version: '1' },
            received_at: '2026-11-01T00:00:00.000Z',
          }),
        },
      }),
    );
    const full = await stack.call('GET', `/api/v1/candidates/${cand.mine}`, { token: adminToken });
    expect(full.body.data.application).toMatchObject({ answers: { years: 4 } });
    const one = await stack.call('GET', `/api/candidates/${cand.mine}`, as(cookie));
    expect(one.status).toBe(200);
    expect(one.body.data.phone).toBeNull();
    expect(one.body.data.application).toBeNull();
    expect(one.body.data.screening).toBeNull();
    for (const other of [cand.theirs, cand.loose])
      expect((await stack.call('GET', `/api/candidates/${other}`, as(cookie))).status).toBe(404);
    // Another interviewer of the workspace still sees nobody.
    const stranger = await stack.login((await tenant.user('interviewer')).email, PASSWORD);
    expect(ids(await stack.call('GET', '/api/candidates', as(stranger)))).toEqual([]);

    expect((await stack.call('DELETE', `/api/v1/interviews/${iv.body.data.id}`, { token: adminToken })).status).toBe(200);
    expect(ids(await stack.call('GET', '/api/candidates', as(cookie)))).toEqual([]);
    expect((await stack.call('GET', `/api/candidates/${cand.mine}`, as(cookie))).status).toBe(404);
  });
});
