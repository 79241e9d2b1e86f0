/**
 * A request that runs out of its function's time stops before its next DynamoDB step and answers
 * 429 `busy`: it never writes after middy's early timeout has answered for it (a write after the
 * answer is what made counters read after a load run disagree with the records), and a deep
 * offset ends in a clear 429 rather than a 500. The handlers run as Lambda runs them, with a
 * context whose remaining time the test sets: a DynamoDB call "takes" the time the test says,
 * with no clock or sleep involved.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Context } from 'aws-lambda';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';
import { ddbClient } from '../../lib/store/client';
import { lambdaContext, proxyEvent } from '../../dev/events';
import { moveCandidate } from '../../lib/domain/candidate-writes';
import { candidateItem } from '../../lib/store/candidates';
import { batchPut } from '../../lib/store/batch';
import { newId } from '../../lib/ids';

let stack: Stack;
let tenant: TestTenant;
let token: string;
/** What the context answers as the time left; a middleware lowers it as calls "take" time. */
let remaining = 0;
/** Called with each command's name and input once DynamoDB has answered it. */
let afterCall: (name: string, input: Record<string, unknown>) => void | Promise<void> = () => {};
const sent: string[] = [];
/** The client outlives the file (the shared graph, vitest.config.ts): the hook goes with it. */
const HOOK = 'time-budget-test';

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  ddbClient.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } finally {
        sent.push(String(context.commandName));
        await afterCall(String(context.commandName), args.input as Record<string, unknown>);
      }
    },
    { step: 'initialize', name: HOOK },
  );
});
afterAll(async () => {
  ddbClient.middlewareStack.remove(HOOK);
  await stack?.close();
});
beforeEach(() => {
  // Far more than any step here takes, however slow the machine; the test lowers it.
  remaining = 120_000;
  afterCall = () => {};
});

/** The sort key a command names (document client or marshalled input). */
const sortKeyOf = (input: Record<string, unknown>) => {
  const sk = (input.Key as Record<string, unknown> | undefined)?.SK;
  return typeof sk === 'string' ? sk : ((sk as { S?: string } | undefined)?.S ?? '');
};

/** Invoke a route's handler as API Gateway would after the token authorizer allowed it. */
async function invoke(
  handlerModule: string,
  method: string,
  path: string,
  opts: { body?: unknown; query?: Record<string, string>; as?: TestTenant } = {},
) {
  const caller = opts.as ?? tenant;
  const { handler } = (await import(`../../functions/${handlerModule}.ts`)) as {
    handler: (event: unknown, context: Context) => Promise<{ statusCode: number; body: string; headers?: Record<string, string> }>;
  };
  const event = proxyEvent({
    method,
    path,
    resource: path,
    pathParameters: {},
    headers: opts.body === undefined ? {} : { 'content-type': 'application/json' },
    search: new URLSearchParams(opts.query),
    body: opts.body === undefined ? null : JSON.stringify(opts.body),
    sourceIp: '127.0.0.1',
    authorizer: { tenantId: caller.id, tenantSlug: caller.slug, scopes: '*', tokenId: 'budget-test', principalId: 'budget-test' },
  });
  // Middy's own early timeout reads the time left once, at the start: never reached here.
  const context = { ...lambdaContext(handlerModule), getRemainingTimeInMillis: () => remaining };
  sent.length = 0;
  const res = await handler(event, context);
  return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers ?? {} };
}

const counts = async () => {
  const pipeline = (await stack.call('GET', '/api/v1/pipeline', { token })).body.data;
  const list = (await stack.call('GET', '/api/v1/candidates?limit=200', { token })).body;
  return { stage_counts: pipeline.stage_counts, count: list.count, ids: list.data.map((c: { id: string }) => c.id).sort() };
};

it('a create whose time runs out during its requisition read answers 429 busy and writes nothing', async () => {
  const req = (await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Budget' } })).body.data;
  const before = await counts();
  // The requisition read "takes" all but half a second of the function's time.
  afterCall = (name, input) => {
    if (name === 'GetItemCommand' && sortKeyOf(input) === `REQ#${req.id}`) remaining = 500;
  };
  const res = await invoke('create-candidate', 'POST', '/api/v1/candidates', { body: { name: 'Late Writer', req_id: req.id } });
  expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([429, 'busy']);
  expect(res.body.error).toMatch(/in time/);
  expect(res.headers['Retry-After']).toBe('2');
  expect(sent).not.toContain('TransactWriteItemsCommand');
  expect(await counts()).toEqual(before);
  const again = (await stack.call('GET', `/api/v1/requisitions/${req.id}`, { token })).body.data;
  expect(again.candidate_count).toBe('0');
});

it('a move that lost a race and has no time left for another attempt answers 429 busy; the winner alone counts', async () => {
  const c = (await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Raced Over' } })).body.data;
  const before = await counts();
  let raced = false;
  // Just after the move read the candidate, another move wins; the read "took" the time left.
  afterCall = async (name, input) => {
    if (raced || name !== 'GetItemCommand' || sortKeyOf(input) !== `CAND#${c.id}`) return;
    raced = true;
    await moveCandidate(tenant.id, c.id, 'interviewed', () => new Date().toISOString());
    remaining = 120_000;
    afterCall = (n) => {
      if (n === 'TransactWriteItemsCommand') remaining = 500;
    };
  };
  const res = await invoke('change-stage', 'POST', '/api/v1/pipeline', { body: { candidate_id: c.id, stage: 'offer_sent' } });
  expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([429, 'busy']);
  // The winner's move, and one attempt of this one, cancelled by it; no second attempt.
  expect(sent.filter((n) => n === 'TransactWriteItemsCommand')).toHaveLength(2);
  const after = await counts();
  expect(after.count).toBe(before.count);
  expect(after.stage_counts).toEqual({
    ...before.stage_counts,
    applied: before.stage_counts.applied - 1,
    interviewed: before.stage_counts.interviewed + 1,
  });
  expect((await stack.call('GET', `/api/v1/candidates/${c.id}`, { token })).body.data.stage).toBe('interviewed');
});

it('an offset page whose skip cannot end in time answers 429 busy naming offset, and reads no further', async () => {
  const other = await stack.tenant();
  const otherToken = await other.token(['*']);
  const at = new Date().toISOString();
  // About 2.6 KB each (the longest resume_url allowed): 450 fill more than one 1 MB read.
  const items = Array.from({ length: 460 }, (_, i) =>
    candidateItem(other.id, {
      id: newId(),
      name: `Deep ${i}`,
      resume_url: `https://cv.example.com/${'x'.repeat(2_000)}`,
      stage: 'applied',
      created_at: at,
      updated_at: at,
      stage_entered_at: at,
    }),
  );
  expect(await batchPut(items)).toEqual([]);
  const deep = { offset: '450', limit: '5' };
  const whole = await stack.call('GET', '/api/v1/candidates?offset=450&limit=5', { token: otherToken });
  expect(whole.status).toBe(200);
  expect(whole.body.data).toHaveLength(5);

  afterCall = (name) => {
    if (name === 'QueryCommand') remaining = 500;
  };
  const res = await invoke('list-candidates', 'GET', '/api/v1/candidates', { query: deep, as: other });
  expect([res.status, res.body.code, res.body.field], JSON.stringify(res.body).slice(0, 300)).toEqual([429, 'busy', 'offset']);
  expect(res.body.error).toMatch(/next_cursor/);
  // The first keys-only read, then nothing: the skip stopped when the time did.
  expect(sent.filter((n) => n === 'QueryCommand')).toHaveLength(1);
});
