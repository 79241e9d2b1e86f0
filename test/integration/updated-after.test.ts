/**
 * GET /api/v1/candidates?updated_after=…: the sync feed on GSI4. Oldest change first, inclusive,
 * every write (create, PATCH, stage move) moves a candidate to the end, pages with the cursor
 * machinery (one Query per page), resumes from the last updated_at seen, and refuses what it
 * cannot combine.
 */
import { dynamodbEndpoint } from '../helpers/dynamodb-endpoint';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack, type TestTenant, recordDynamoDbCommands, COUNTING_STACK } from '../helpers/stack';
import { PutCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../../lib/store/client';
import { candidateItem } from '../../lib/store/candidates';
import { newId } from '../../lib/ids';
import { backfillChangeIndex } from '../../dev/backfill';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable, localClient } from '../../dev/table';

let stack: Stack;
let t: TestTenant;
let other: TestTenant;
let token: string;
const sent: string[] = [];

beforeAll(async () => {
  stack = await startStack(COUNTING_STACK);
  t = await stack.tenant();
  other = await stack.tenant();
  token = await t.token(['candidates:read', 'candidates:write', 'pipeline:write']);
  await recordDynamoDbCommands(sent);
});
afterAll(() => stack.close());

type Row = { id: string; name: string; updated_at: string; stage: string };
const feed = (query: string, tok = token) => stack.call('GET', `/api/v1/candidates?${query}`, { token: tok });
const create = async (name: string, tok = token) => {
  const res = await stack.call('POST', '/api/v1/candidates', { token: tok, body: { name } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
/** Every page of the feed from `since`, following next_cursor. */
async function drain(since: string, limit: number, between?: (page: number) => Promise<void>) {
  const rows: Row[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 500; page++) {
    const res = await feed(
      `updated_after=${encodeURIComponent(since)}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    rows.push(...res.body.data);
    cursor = res.body.next_cursor;
    if (!cursor) return rows;
    await between?.(page);
  }
  throw new Error('the feed never ended');
}
const isOrdered = (rows: Row[]) =>
  rows.every((r, i) => i === 0 || `${rows[i - 1]!.updated_at}#${rows[i - 1]!.id}` < `${r.updated_at}#${r.id}`);

describe('the feed', () => {
  it('lists creates, PATCHes and stage moves since a time, oldest change first', async () => {
    const since = new Date().toISOString();
    await sleep(5);
    const a = await create('Feed A');
    const b = await create('Feed B');
    const c = await create('Feed C');
    await sleep(5);
    expect((await stack.call('PATCH', `/api/v1/candidates/${a}`, { token, body: { name: 'Feed A2' } })).status).toBe(200);
    await sleep(5);
    expect((await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: b, stage: 'offer_sent' } })).status).toBe(200);
    sent.length = 0;
    const res = await feed(`updated_after=${since}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: Row) => r.id)).toEqual([c, a, b]);
    expect(res.body.data[1].name).toBe('Feed A2');
    expect(res.body.data[2].stage).toBe('offer_sent');
    expect(res.body).toMatchObject({ count: 3, offset: 0, next_cursor: null });
    // One Query on the index, no counter read.
    expect(sent).toEqual(['QueryCommand']);
  });

  it('is inclusive: a change at exactly updated_after is in it; offsets are normalised', async () => {
    const id = await create('Exact');
    const at = (await stack.call('GET', `/api/v1/candidates/${id}`, { token })).body.data.updated_at as string;
    const exact = await feed(`updated_after=${at}&limit=200`);
    expect(exact.body.data.map((r: Row) => r.id)).toContain(id);
    // The same instant written with an offset.
    const d = new Date(Date.parse(at) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    const shifted = await feed(`updated_after=${encodeURIComponent(d)}&limit=200`);
    expect(shifted.body.data.map((r: Row) => r.id)).toEqual(exact.body.data.map((r: Row) => r.id));
    const later = await feed(`updated_after=${new Date(Date.parse(at) + 1).toISOString()}&limit=200`);
    expect(later.body.data.map((r: Row) => r.id)).not.toContain(id);
  });

  it('pages forward while writes happen: every candidate seen, changes seen again at the end, in order', async () => {
    const since = new Date().toISOString();
    await sleep(5);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await create(`Page ${i}`));
    const changed = new Set<string>();
    const rows = await drain(since, 7, async (page) => {
      // An already-seen candidate and a not-yet-seen one change between pages; a new one arrives.
      const seen = ids[page]!;
      const ahead = ids[39 - page]!;
      for (const id of [seen, ahead]) {
        const res = await stack.call('PATCH', `/api/v1/candidates/${id}`, { token, body: { phone: `+1 555 ${1000 + page}` } });
        expect(res.status).toBe(200);
        changed.add(id);
      }
      if (page < 3) ids.push(await create(`Late ${page}`));
    });
    // Each page's rows are in feed order; the whole drain too, as changes only move forward.
    expect(isOrdered(rows)).toBe(true);
    const seenIds = new Set(rows.map((r) => r.id));
    for (const id of ids) expect(seenIds.has(id), id).toBe(true);
    // The last version of each changed candidate was delivered.
    for (const id of changed) {
      const last = rows.filter((r) => r.id === id).at(-1)!;
      const now = (await stack.call('GET', `/api/v1/candidates/${id}`, { token })).body.data;
      expect(last.updated_at).toBe(now.updated_at);
    }
  });

  it('resumes from the last updated_at seen without missing a change', async () => {
    const since = new Date().toISOString();
    await sleep(5);
    for (let i = 0; i < 5; i++) await create(`Resume ${i}`);
    const first = await feed(`updated_after=${since}&limit=3`);
    const lastSeen = first.body.data.at(-1) as Row;
    const newcomer = await create('Resume new');
    // A new sync run resumes from the last updated_at it stored (inclusive: that row comes again).
    const resumed = await drain(lastSeen.updated_at, 2);
    const resumedIds = resumed.map((r) => r.id);
    expect(resumedIds[0]).toBe(lastSeen.id);
    expect(resumedIds).toContain(newcomer);
    const all = new Set([...first.body.data.map((r: Row) => r.id), ...resumedIds]);
    expect(all.size).toBe(6);
  });

  it("holds only the caller's tenant", async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const otherToken = await other.token(['candidates:read', 'candidates:write']);
    const theirs = await create('Other tenant', otherToken);
    const mine = await drain(since, 50);
    expect(mine.map((r) => r.id)).not.toContain(theirs);
    const res = await feed(`updated_after=${since}&limit=200`, otherToken);
    expect(res.body.data.map((r: Row) => r.id)).toEqual([theirs]);
  });

  it('backfills candidates written before GSI4 existed (npm start does this)', async () => {
    const at = '2020-01-01T00:00:00.000Z';
    const {
      GSI4PK: _p,
      GSI4SK: _s,
      ...old
    } = candidateItem(t.id, { id: newId(), name: 'Old', stage: 'applied', created_at: at, updated_at: at, stage_entered_at: at });
    await ddb.send(new PutCommand({ TableName: tableName(), Item: old }));
    expect((await feed(`updated_after=${at}&limit=200`)).body.data.map((r: Row) => r.id)).not.toContain(old.id);
    expect(await backfillChangeIndex()).toBeGreaterThanOrEqual(1);
    const feedNow = (await feed(`updated_after=${at}&limit=200`)).body.data.map((r: Row) => r.id);
    expect(feedNow[0]).toBe(old.id);
    expect(await backfillChangeIndex()).toBe(0);
    const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: { PK: old.PK, SK: old.SK } }));
    expect(Item?.GSI4SK).toBe(`${at}#${old.id}`);
  });
});

describe('an older local table', () => {
  it('npm start adds the missing indexes (GSI2, the stuck index GSI3, GSI4, the board index GSI5, the person index GSI6) to a table made before them', async () => {
    const client = localClient(dynamodbEndpoint());
    const TableName = `old-${randomUUID()}`;
    const key = (n: string, KeyType: 'HASH' | 'RANGE') => ({ AttributeName: n, KeyType });
    await client.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['PK', 'SK', 'GSI1PK', 'GSI1SK'].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [key('PK', 'HASH'), key('SK', 'RANGE')],
        GlobalSecondaryIndexes: [
          { IndexName: 'GSI1', KeySchema: [key('GSI1PK', 'HASH'), key('GSI1SK', 'RANGE')], Projection: { ProjectionType: 'ALL' } },
        ],
      }),
    );
    try {
      expect(await ensureTable(client, TableName)).toBe('exists');
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      expect(Table!.GlobalSecondaryIndexes!.map((i) => i.IndexName).sort()).toEqual(['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5', 'GSI6']);
      // A second start finds nothing to add.
      expect(await ensureTable(client, TableName)).toBe('exists');
    } finally {
      await client.send(new DeleteTableCommand({ TableName }));
    }
  });
});

describe('refusals', () => {
  it.each([
    ['not a date', 'updated_after=yesterday'],
    ['no time zone', 'updated_after=2026-01-31T09:00:00'],
    ['empty', 'updated_after='],
    ['given twice', 'updated_after=2026-01-31T09:00:00Z&updated_after=2026-01-31T09:00:00Z'],
    ['with stage', 'updated_after=2026-01-31T09:00:00Z&stage=applied'],
    ['with req_id', `updated_after=2026-01-31T09:00:00Z&req_id=${randomUUID()}`],
    ['with offset', 'updated_after=2026-01-31T09:00:00Z&offset=5'],
  ])('answers 400 to %s', async (_why, query) => {
    const res = await feed(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/updated_after|given at most once/);
  });

  it('refuses a cursor made for another list, another updated_after or another tenant', async () => {
    for (let i = 0; i < 3; i++) await create(`Cursor ${i}`);
    const since = '2000-01-01T00:00:00Z';
    const page = await feed(`updated_after=${since}&limit=1`);
    const cursor = encodeURIComponent(page.body.next_cursor);
    expect((await feed(`updated_after=${since}&limit=1&cursor=${cursor}`)).status).toBe(200);
    expect((await feed(`updated_after=2001-01-01T00:00:00Z&limit=1&cursor=${cursor}`)).status).toBe(400);
    expect((await feed(`limit=1&cursor=${cursor}`)).status).toBe(400);
    expect((await feed(`updated_after=${since}&limit=1&cursor=${cursor}`, await other.token(['candidates:read']))).status).toBe(400);
    const plain = await feed('limit=1');
    expect((await feed(`updated_after=${since}&limit=1&cursor=${encodeURIComponent(plain.body.next_cursor)}`)).status).toBe(400);
  });

  it('needs candidates:read', async () => {
    expect((await feed('updated_after=2026-01-31T09:00:00Z', await t.token(['pipeline:read']))).status).toBe(403);
  });
});
