/**
 * What an import writes per row, pinned: a row of a new email writes its candidate, its search
 * entries, its person (their duplicate guard on the person item) and their email's claim, and a transaction of rows one counter
 * update and one audit intent, with no read per row. Then the maintenance consumer writes the
 * intent's activity items with one BatchGetItem (the candidates' people) and a transaction per 50
 * items, not a GetItem and a transaction per record; each item still only while its person exists,
 * and once.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandActivity } from '../../lib/domain/activity';
import { auditIntentsOf } from '../../lib/store/audit-expand';
import { ddb, ddbClient, queryAll, tableName } from '../../lib/store/client';
import { candidateTokens } from '../../lib/store/search';
import { keys } from '../../lib/store/table';
import { recordDynamoDbCommands, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { importFinished } from '../helpers/import-job';

let stack: Stack;
let t: TestTenant;
let token: string;
const sent: string[] = [];
let counting = false;
/** The actions of each transaction written while `counting`, by kind: a put's type, an update's or a check's sort key. */
const transactions: string[][] = [];
/** The keys of the GetItems sent while `counting`. */
const gets: string[] = [];
/** The client outlives the file (the shared graph, vitest.config.ts): the counter goes with it. */
const HOOK = 'import-writes-test';

const kindOf = (a: Record<string, any>) =>
  a.Put ? String(a.Put.Item.type) : String((a.Update ?? a.Delete ?? a.ConditionCheck).Key.SK).split('#')[0]!;

beforeAll(async () => {
  stack = await startStack({ imports: true });
  t = await stack.tenant();
  token = await t.token(['*']);
  await recordDynamoDbCommands(sent, () => counting);
  ddbClient.middlewareStack.add(
    (next, context) => async (args) => {
      if (counting && context.commandName === 'GetItemCommand') gets.push(String((args.input as { Key: { SK: string } }).Key.SK));
      const out = await next(args);
      // Written ones only: a transaction a lost race cancelled wrote nothing.
      const input = args.input as { TransactItems?: Record<string, any>[] };
      if (counting && context.commandName === 'TransactWriteItemsCommand') transactions.push(input.TransactItems!.map(kindOf));
      return out;
    },
    { step: 'initialize', name: HOOK },
  );
});
afterAll(async () => {
  ddbClient.middlewareStack.remove(HOOK);
  await stack?.close();
});

const finished = (id: string) => importFinished(stack, id, token);

const feedOf = (personId: string) =>
  queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :act)',
    ExpressionAttributeValues: { ':pk': keys.personPartition(t.id, personId), ':act': 'ACT#' },
    ConsistentRead: true,
  });

describe("an import's writes", () => {
  it('are 3 items and a search entry per token for each new row, 2 per transaction of rows, and no read per row; then a few calls per intent for the feed, each item while its person exists, and once', async () => {
    const rows = 30;
    const stamp = Date.now();
    const names = Array.from({ length: rows }, (_, i) => ({ name: `Row Person${i}`, email: `row-${i}.${stamp}@import-writes.example` }));
    sent.length = 0;
    counting = true;
    const posted = await stack.call('POST', '/api/v1/candidates/imports', {
      token,
      rawBody: ['name,email', ...names.map((r) => `${r.name},${r.email}`)].join('\n'),
      headers: { 'Content-Type': 'text/csv' },
    });
    expect(posted.status, posted.text).toBe(202);
    expect((await finished(posted.body.data.id)).counts).toMatchObject({ created: rows, skipped: 0, failed: 0 });
    counting = false;
    const rowTransactions = transactions.filter((x) => x.includes('candidate'));
    const all = rowTransactions.flat();
    const tally = (kind: string) => all.filter((k) => k === kind).length;
    expect(tally('candidate')).toBe(rows);
    expect(tally('person')).toBe(rows);
    // The guard is on the person item: no item of its own.
    expect(tally('person_guard')).toBe(0);
    expect(tally('email_claim')).toBe(rows);
    expect(tally('search')).toBe(names.reduce((n, r) => n + candidateTokens(r).length, 0));
    for (const x of rowTransactions) {
      expect(x.filter((k) => k === 'STATS')).toHaveLength(1);
      expect(x.filter((k) => k === 'audit_intent')).toHaveLength(1);
    }
    expect(all).toHaveLength(rows * 3 + tally('search') + rowTransactions.length * 2);
    // Full transactions: as few as DynamoDB's 100 actions allow.
    expect(rowTransactions.length).toBe(Math.ceil(all.length / 100));
    // Reads: the slice's emails and the job's own items, none per row.
    // (The job's item is read per slice and by each GET of it: not a row's.)
    expect(gets.filter((sk) => /^(CAND#|PERSON|CLAIM|GUARD#)/.test(sk))).toEqual([]);
    expect(sent.filter((c) => c === 'QueryCommand' || c === 'BatchGetItemCommand').length).toBeLessThan(rows / 2);
    const listed = await stack.call('GET', '/api/v1/candidates?limit=100', { token });
    const people = (listed.body.data as { person_id: string }[]).map((c) => c.person_id);
    expect(new Set(people).size).toBe(rows);
    // One person erased before the consumer runs: their partition is gone, and no feed item may come back.
    const [erased, ...kept] = people;
    await ddb.send(new DeleteCommand({ TableName: tableName(), Key: keys.person(t.id, erased!) }));

    const intents = (await auditIntentsOf(t.id)).filter((i) => (i.records as unknown[]).length > 1);
    expect(intents.length).toBeGreaterThan(1);
    sent.length = 0;
    counting = true;
    let written = 0;
    for (const intent of intents) written += await expandActivity(intent);
    counting = false;
    expect(written).toBe(rows - 1);
    const count = (name: string) => sent.filter((c) => c === name).length;
    expect(count('GetItemCommand')).toBe(0);
    expect(count('BatchGetItemCommand')).toBe(intents.length);
    // One transaction per intent, and one more where the erased person's item was refused.
    expect(count('TransactWriteItemsCommand')).toBe(intents.length + 1);

    for (const p of kept) expect(await feedOf(p)).toHaveLength(1);
    expect(await feedOf(erased!)).toHaveLength(0);
    // A second expansion (a redelivered stream record) writes nothing.
    let again = 0;
    for (const intent of intents) again += await expandActivity(intent);
    expect(again).toBe(0);
    for (const p of kept) expect(await feedOf(p)).toHaveLength(1);
  });
});
