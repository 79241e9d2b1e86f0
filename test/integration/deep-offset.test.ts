/**
 * Deep offset pages, whose skip reads every candidate it passes, are bounded per caller: one
 * member (or one API token) runs at most DEEP_PAGES_AT_ONCE at once, the others answer a clear
 * 429 at once, so ten in parallel cannot take DynamoDB's reads from everyone else. The skips are
 * held at their first read until every request has taken or been refused its slot, so which ones
 * run does not depend on timing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSWORD, recordDynamoDbCommands, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { until } from '../helpers/until';
import { DEEP_OFFSET, DEEP_PAGES_AT_ONCE } from '../../lib/model';
import { ddbClient, ddb, tableName } from '../../lib/store/client';
import { UpdateCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchPut } from '../../lib/store/batch';
import { candidateItem } from '../../lib/store/candidates';
import { keys } from '../../lib/store/table';
import { newId } from '../../lib/ids';
import { takeLease, releaseLease } from '../../lib/store/leases';

let stack: Stack;
let tenant: TestTenant;
let token: string;
let cookie: string;
let memberId: string;
const sent: string[] = [];
/** While set, a skip read (keys-only Query) waits for it before going out. */
let hold: Promise<void> | undefined;
/** The client outlives the file (the shared graph, vitest.config.ts): the hook goes with it. */
const HOOK = 'deep-offset-test';
let skipsStarted = 0;

const OFFSET = DEEP_OFFSET + 100;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  const member = await tenant.user('recruiter');
  memberId = member.id;
  cookie = await stack.login(member.email, PASSWORD);
  await seed(tenant.id, OFFSET + 50);
  await recordDynamoDbCommands(sent);
  ddbClient.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ProjectionExpression?: string };
      if (context.commandName === 'QueryCommand' && input.ProjectionExpression?.startsWith('#k0')) {
        skipsStarted++;
        await hold;
      }
      return next(args);
    },
    { step: 'initialize', name: HOOK },
  );
}, 300_000);
afterAll(async () => {
  ddbClient.middlewareStack.remove(HOOK);
  await stack?.close();
});

/** `n` plain candidates written straight to the table, with the counters a create would keep. */
async function seed(tenantId: string, n: number) {
  const at = new Date().toISOString();
  const items = Array.from({ length: n }, (_, i) =>
    candidateItem(tenantId, { id: newId(), name: `Deep ${i}`, stage: 'applied', created_at: at, updated_at: at, stage_entered_at: at }),
  );
  expect(await batchPut(items)).toEqual([]);
  await ddb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.stats(tenantId),
      UpdateExpression: 'SET #t = :n, n_applied = :n',
      ExpressionAttributeNames: { '#t': 'total' },
      ExpressionAttributeValues: { ':n': n },
    }),
  );
}

const deepPage = (who: { cookie?: string; token?: string }) =>
  who.cookie
    ? stack.call('GET', `/api/candidates?offset=${OFFSET}&limit=20`, { headers: { cookie: who.cookie } })
    : stack.call('GET', `/api/v1/candidates?offset=${OFFSET}&limit=20`, { token: who.token });

async function tenInParallel(who: { cookie?: string; token?: string }) {
  let open!: () => void;
  hold = new Promise((r) => (open = r));
  skipsStarted = 0;
  sent.length = 0;
  const answers: { status: number; body: any; headers: Headers }[] = [];
  const pending = Array.from({ length: 10 }, () => deepPage(who).then((r) => answers.push(r)));
  try {
    // The slots are taken; every other request has had its answer.
    await until('the deep pages over the limit to be refused', () => answers.length === 10 - DEEP_PAGES_AT_ONCE);
    await until('the admitted skips to reach their first read', () => skipsStarted === DEEP_PAGES_AT_ONCE);
    // Meanwhile another call of the same workspace is served, while the admitted skips still wait.
    const other = await stack.call('GET', '/api/v1/requisitions', { token });
    expect(other.status).toBe(200);
  } finally {
    open();
    hold = undefined;
  }
  await Promise.all(pending);
  const slots = DEEP_PAGES_AT_ONCE;
  const refused = answers.filter((a) => a.body.code === 'rate_limited');
  const admitted = answers.filter((a) => a.body.code !== 'rate_limited');
  expect(refused).toHaveLength(10 - slots);
  for (const a of refused) {
    expect([a.status, a.body.field, a.headers.get('retry-after')]).toEqual([429, 'offset', '1']);
    expect(a.body.error).toMatch(/next_cursor/);
  }
  // The admitted pages answer their page; a page whose skip the test held past its request's
  // time budget (a slow machine) answers 429 busy instead: never a 500 either way.
  expect(admitted).toHaveLength(slots);
  for (const a of admitted) {
    if (a.status === 200) expect(a.body.data).toHaveLength(20);
    else expect([a.status, a.body.code, a.body.field]).toEqual([429, 'busy', 'offset']);
  }
  // Bounded work: the admitted pages read their skip and their page (one Query each here), the
  // other call its one Query; the refused ones read nothing. Slots are tried in order, a PutItem
  // each: the pages admitted at slots 0, 1, … tried 1, 2, … of them, a refused one all.
  const n = (name: string) => sent.filter((c) => c === name).length;
  expect(skipsStarted).toBe(slots);
  expect(n('QueryCommand')).toBe(slots + admitted.filter((a) => a.status === 200).length + 1);
  expect(n('PutItemCommand')).toBe((slots * (slots + 1)) / 2 + (10 - slots) * slots);
  expect(n('DeleteItemCommand')).toBe(slots);
  return answers;
}

it(`ten parallel deep pages from one member: ${DEEP_PAGES_AT_ONCE} run, the rest answer 429 at once, none 500`, async () => {
  const answers = await tenInParallel({ cookie });
  expect(answers.filter((a) => a.status >= 500)).toEqual([]);
});

it('the same for an API token; its slots are its own, and each answered page gave its slot back', async () => {
  const answers = await tenInParallel({ token });
  expect(answers.filter((a) => a.status >= 500)).toEqual([]);
  // Every slot is free again: the next deep pages run.
  const again = await Promise.all(Array.from({ length: DEEP_PAGES_AT_ONCE }, () => deepPage({ token })));
  expect(again.map((a) => a.status)).toEqual(Array(DEEP_PAGES_AT_ONCE).fill(200));
  const { Items = [] } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.leasePartition(tenant.id) },
      ConsistentRead: true,
    }),
  );
  expect(Items).toEqual([]);
});

it('a shallow offset and the cursor take no slot', async () => {
  sent.length = 0;
  const res = await stack.call('GET', `/api/v1/candidates?offset=${DEEP_OFFSET}&limit=20`, { token });
  expect(res.status).toBe(200);
  const next = await stack.call('GET', `/api/v1/candidates?limit=20&cursor=${res.body.next_cursor}`, { token });
  expect(next.status).toBe(200);
  expect(sent.filter((c) => c === 'PutItemCommand' || c === 'DeleteItemCommand')).toEqual([]);
});

it('slots are per caller and per workspace: a member holding both does not stop a token of the workspace, nor a member of another', async () => {
  const held = [
    await takeLease(tenant.id, `user#${memberId}`, DEEP_PAGES_AT_ONCE, 60_000),
    await takeLease(tenant.id, `user#${memberId}`, DEEP_PAGES_AT_ONCE, 60_000),
  ];
  try {
    expect(held.every(Boolean)).toBe(true);
    const refused = await deepPage({ cookie });
    expect([refused.status, refused.body.code]).toEqual([429, 'rate_limited']);
    expect((await deepPage({ token })).status).toBe(200);
    const other = await stack.tenant();
    const otherMember = await other.user('recruiter');
    const otherCookie = await stack.login(otherMember.email, PASSWORD);
    const res = await deepPage({ cookie: otherCookie });
    expect([res.status, res.body.data]).toEqual([200, []]);
  } finally {
    for (const lease of held) if (lease) await releaseLease(lease);
  }
});

it('a slot whose holder never gave it back frees itself when that request’s time is over', async () => {
  // Held until a moment ago, as a request that crashed leaves it.
  expect(await takeLease(tenant.id, 'token#crashed', 1, -1)).toBeDefined();
  expect(await takeLease(tenant.id, 'token#crashed', 1, 60_000)).toBeDefined();
  expect(await takeLease(tenant.id, 'token#crashed', 1, 60_000)).toBeUndefined();
});
