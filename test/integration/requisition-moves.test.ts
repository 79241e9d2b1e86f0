/**
 * Moving a candidate to another job (a PATCH of req_id) keeps its own history record, written in
 * the move's transaction with the counters: GET /candidates/{id} lists it in
 * `requisition_history`, by whom, from which requisition to which; a refused move leaves none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let t: TestTenant;
let token: string;
let cookie: string;
let userId: string;

beforeAll(async () => {
  stack = await startStack();
  t = await stack.tenant();
  token = await t.token(['*']);
  const u = await t.user('recruiter');
  userId = u.id;
  cookie = await stack.login(u.email, PASSWORD);
});
afterAll(() => stack.close());

const requisition = async (title: string) => {
  const res = await stack.call('POST', '/api/v1/requisitions', { token, body: { title } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const get = async (id: string) => (await stack.call('GET', `/api/v1/candidates/${id}`, { token })).body.data;
const counts = async (reqId: string) => (await stack.call('GET', `/api/v1/requisitions/${reqId}`, { token })).body.data;

describe('move to another job', () => {
  it('writes a transferred record naming both requisitions and the actor, with the counters, and none when refused', async () => {
    const [from, to, closed] = [
      await requisition('Backend Engineer'),
      await requisition('Platform Engineer'),
      await requisition('Old Role'),
    ];
    const shut = await stack.call('POST', `/api/v1/requisitions/${closed}/status`, { token, body: { status: 'closed', reason: 'Done' } });
    expect(shut.status, shut.text).toBe(200);
    const made = await stack.call('POST', '/api/v1/candidates', {
      token,
      body: { name: 'Tom Transfer', req_id: from, stage: 'interviewed' },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id as string;
    expect((await get(id)).requisition_history).toEqual([]);

    const moved = await stack.call('PATCH', `/api/v1/candidates/${id}`, { token, body: { req_id: to } });
    expect(moved.status, moved.text).toBe(200);
    const after = await get(id);
    expect(after.requisition_history).toEqual([
      {
        kind: 'transferred',
        from_req_id: from,
        from_req_title: 'Backend Engineer',
        to_req_id: to,
        to_req_title: 'Platform Engineer',
        at: after.updated_at,
        actor: expect.objectContaining({ type: 'token' }),
      },
    ]);
    // The stage and its history stay as they were.
    expect(after.stage_history.map((s: { stage: string }) => s.stage)).toEqual(['interviewed']);

    // A refused move (a closed requisition) writes no record.
    const refused = await stack.call('PATCH', `/api/v1/candidates/${id}`, { token, body: { req_id: closed } });
    expect(refused.status).toBe(409);
    expect((await get(id)).requisition_history).toHaveLength(1);

    // The console's move, as a member: a second record, by that member; and out of any requisition.
    const back = await stack.call('PATCH', `/api/candidates/${id}`, { headers: { Cookie: cookie }, body: { req_id: from } });
    expect(back.status, back.text).toBe(200);
    const none = await stack.call('PATCH', `/api/v1/candidates/${id}`, { token, body: { req_id: null } });
    expect(none.status, none.text).toBe(200);
    const history = (await get(id)).requisition_history;
    expect(history.map((h: { from_req_id: string | null; to_req_id: string | null }) => [h.from_req_id, h.to_req_id])).toEqual([
      [from, to],
      [to, from],
      [from, null],
    ]);
    expect(history[1].actor).toMatchObject({ type: 'user', id: userId });
    // The counters moved with each record.
    expect([Number((await counts(from)).candidate_count), Number((await counts(to)).candidate_count)]).toEqual([0, 0]);
  });
});
