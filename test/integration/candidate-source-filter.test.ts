/**
 * GET /api/v1/candidates?source=: the list's own Queries filtered on the candidate's source (never
 * a Scan), alone or with stage, req_id and rejected; paged by cursor, `count` the page's length;
 * refused with q, updated_after and offset; another workspace's candidates never appear.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../lib/store/client';
import { createRequisition } from '../../lib/store/requisitions';
import { keys } from '../../lib/store/table';
import { COUNTING_STACK, PASSWORD, recordDynamoDbCommands, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let token: string;
let reqId: string;
const sent: string[] = [];
let recording = false;

beforeAll(async () => {
  stack = await startStack(COUNTING_STACK);
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  reqId = (await createRequisition(tenant.id, { title: 'Platform Engineer', status: 'open' })).id;
  await recordDynamoDbCommands(sent, () => recording);
});
afterAll(() => stack.close());

/** A candidate made through the API (source `api`), then given `source` as an application would have it. */
async function candidate(t: TestTenant, tok: string, name: string, source: string, body: Record<string, unknown> = {}) {
  const res = await stack.call('POST', '/api/v1/candidates', { token: tok, body: { name, ...body } });
  expect(res.status).toBe(201);
  const id = res.body.data.id as string;
  if (source !== 'api')
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.candidate(t.id, id),
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'source' },
        ExpressionAttributeValues: { ':s': source },
      }),
    );
  return id;
}

const list = (query: string, tok = token) => stack.call('GET', `/api/v1/candidates?${query}`, { token: tok });
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((c) => c.id);

describe('GET /api/v1/candidates?source=', () => {
  let careers: string[];
  let linkedin: string;
  let typed: string;

  beforeAll(async () => {
    // Made oldest first: the list answers newest first.
    careers = [];
    careers.push(await candidate(tenant, token, 'Careers One', 'careers', { req_id: reqId }));
    typed = await candidate(tenant, token, 'Typed In', 'api', { req_id: reqId });
    linkedin = await candidate(tenant, token, 'From LinkedIn', 'linkedin', { req_id: reqId, stage: 'interviewed' });
    careers.push(await candidate(tenant, token, 'Careers Two', 'careers'));
    careers.push(await candidate(tenant, token, 'Careers Three', 'careers', { req_id: reqId, stage: 'interviewed' }));
    // Another workspace's candidates of the same source never show.
    const other = await stack.tenant();
    await candidate(other, await other.token(['*']), 'Elsewhere', 'careers');
  });

  it('lists only that source, newest first, with Queries alone and count as the page length', async () => {
    sent.length = 0;
    recording = true;
    const res = await list('source=careers');
    recording = false;
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([...careers].reverse());
    expect(res.body.count).toBe(3);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.data.every((c: { source: string }) => c.source === 'careers')).toBe(true);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((c) => c !== 'QueryCommand' && c !== 'GetCommand')).toEqual([]);
  });

  it('filters a requisition, a stage and a board column', async () => {
    expect(ids(await list(`source=careers&req_id=${reqId}`))).toEqual([careers[2], careers[0]]);
    expect(ids(await list('source=careers&stage=interviewed'))).toEqual([careers[2]]);
    expect(ids(await list(`source=linkedin&req_id=${reqId}&stage=interviewed`))).toEqual([linkedin]);
    expect(ids(await list('source=api'))).toEqual([typed]);
    const none = await list('source=import');
    expect([none.body.data, none.body.count, none.body.next_cursor]).toEqual([[], 0, null]);
  });

  it('pages by cursor, the cursor bound to its source', async () => {
    const first = await list('source=careers&limit=2');
    expect(ids(first)).toEqual([careers[2], careers[1]]);
    expect(first.body.count).toBe(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const cursor = encodeURIComponent(first.body.next_cursor);
    const second = await list(`source=careers&limit=2&cursor=${cursor}`);
    expect(ids(second)).toEqual([careers[0]]);
    expect(second.body.next_cursor).toBeNull();
    const elsewhere = await list(`source=api&limit=2&cursor=${cursor}`);
    expect([elsewhere.status, elsewhere.body.field]).toEqual([400, 'cursor']);
  });

  it('shows a hiring manager only the candidates of their requisitions from that source', async () => {
    const hm = await tenant.user('hiring_manager');
    const cookie = await stack.login(hm.email, PASSWORD);
    const made = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Team Job', hiring_manager_ids: [hm.id] } });
    expect(made.status).toBe(201);
    const teamReq = made.body.data.id as string;
    const seen = await candidate(tenant, token, 'Team Careers', 'careers', { req_id: teamReq });
    await candidate(tenant, token, 'Team Typed', 'api', { req_id: teamReq });
    const asHm = (query: string) => stack.call('GET', `/api/candidates?${query}`, { headers: { Cookie: cookie } });
    const all = await asHm('source=careers');
    expect([all.status, ids(all), all.body.count]).toEqual([200, [seen], 1]);
    const one = await asHm(`source=careers&req_id=${teamReq}`);
    expect([ids(one), one.body.count]).toEqual([[seen], 1]);
    expect((await asHm(`source=careers&req_id=${reqId}`)).status).toBe(404);
  });

  it.each([
    ['source=careers&q=careers', 'source'],
    ['source=careers&updated_after=2026-01-01T00:00:00Z', 'source'],
    ['source=careers&offset=1', 'offset'],
    ['source=Careers', 'source'],
    ['source=', 'source'],
  ])('refuses %s naming %s', async (query, field) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });
});
