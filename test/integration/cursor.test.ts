/**
 * Cursor paging on GET /api/v1/candidates: every candidate exactly once at any depth while
 * writes happen, one Query per page, and refusal of edited, foreign or mismatched cursors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack, type TestTenant, recordDynamoDbCommands, COUNTING_STACK } from '../helpers/stack';
import { STAGES } from '../../lib/model';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../../lib/store/client';
import { candidateItem } from '../../lib/store/candidates';
import { keys, counter } from '../../lib/store/table';
import { newId } from '../../lib/ids';
import { createRequisition } from '../../lib/store/requisitions';

let stack: Stack;
let t: TestTenant;
let token: string;
let reqId: string;
const seeded: string[] = [];
const sent: string[] = [];

/** Bulk-load candidates (with their counters) without 1,000 API calls. */
async function seed(tenantId: string, n: number, req?: { id: string; title: string }) {
  const at = new Date(Date.now() - 86_400_000).toISOString();
  const items = Array.from({ length: n }, (_, i) =>
    candidateItem(tenantId, {
      id: newId(),
      name: `Seed ${i}`,
      stage: STAGES[i % 3]!,
      ...(req && { req_id: req.id, req_title: req.title }),
      created_at: at,
      updated_at: at,
      stage_entered_at: at,
    }),
  );
  for (let i = 0; i < items.length; i += 25) {
    let request: Record<string, unknown[]> | undefined = {
      [tableName()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })),
    };
    while (request && Object.keys(request).length) {
      const res = await ddb.send(new BatchWriteCommand({ RequestItems: request as never }));
      request = res.UnprocessedItems as Record<string, unknown[]> | undefined;
    }
  }
  const perStage = Object.fromEntries(STAGES.map((s) => [counter.stage(s), items.filter((c) => c.stage === s).length]));
  const names = Object.keys(perStage);
  // The counters the per-candidate transactions would have kept: the tenant's, and the requisition's.
  for (const [Key, total] of [
    [keys.stats(tenantId), 'total'],
    ...(req ? [[keys.requisition(tenantId, req.id), 'c_total'] as const] : []),
  ] as const) {
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: `ADD ${names.map((_, i) => `#n${i} :n${i}`).join(', ')}, #t :t`,
        ExpressionAttributeNames: { ...Object.fromEntries(names.map((nm, i) => [`#n${i}`, nm])), '#t': total },
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((nm, i) => [`:n${i}`, perStage[nm]])), ':t': n },
      }),
    );
  }
  return items.map((c) => c.id as string);
}

beforeAll(async () => {
  stack = await startStack(COUNTING_STACK);
  t = await stack.tenant();
  token = await t.token(['*']);
  const req = await createRequisition(t.id, { title: 'Paged', status: 'open' });
  reqId = req.id;
  seeded.push(...(await seed(t.id, 1_000)));
  seeded.push(...(await seed(t.id, 90, { id: req.id, title: req.title })));
  await recordDynamoDbCommands(sent);
}, 120_000);
afterAll(() => stack.close());

const list = (query: string) => stack.call('GET', `/api/v1/candidates?${query}`, { token });

async function pageThrough(query: string, limit: number, during?: () => Promise<unknown>) {
  const ids: string[] = [];
  const callsPerPage: string[][] = [];
  let cursor: string | null = null;
  let pages = 0;
  await list('limit=1'); // the authorizer's own reads are cached after the first call
  do {
    sent.length = 0;
    const res = await list([query, `limit=${limit}`, cursor && `cursor=${encodeURIComponent(cursor)}`].filter(Boolean).join('&'));
    expect(res.status, res.text).toBe(200);
    callsPerPage.push([...sent].sort());
    ids.push(...res.body.data.map((c: { id: string }) => c.id));
    cursor = res.body.next_cursor;
    if (during) await during();
    expect(++pages).toBeLessThan(200);
  } while (cursor);
  return { ids, callsPerPage };
}

describe('cursor paging', () => {
  it('pages through 1,090 candidates, each exactly once, with one Query per page at any depth, while writes happen', async () => {
    let n = 0;
    const writes = async () => {
      // New candidates (they sort before the first page, so they are not in this pass) and moves
      // of seeded ones, which keep their place in the newest-first list.
      const created = await stack.call('POST', '/api/v1/candidates', { token, body: { name: `During ${n}` } });
      expect(created.status).toBe(201);
      const moved = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: seeded[n * 7]!, stage: 'interviewed' } });
      expect(moved.status).toBe(200);
      n++;
    };
    const { ids, callsPerPage } = await pageThrough('', 50, writes);
    expect(ids).toHaveLength(new Set(ids).size);
    expect(new Set(ids)).toEqual(new Set(seeded));
    // The counters' BatchGetItem and one Query, on page 1 and on page 22 alike.
    for (const calls of callsPerPage) expect(calls).toEqual(['BatchGetItemCommand', 'QueryCommand']);
  }, 180_000);

  it('pages a stage filter and a requisition filter to the end; next_cursor is null on the last page', async () => {
    const stage = await pageThrough('stage=ai_screened', 100);
    const total = (await list('stage=ai_screened&limit=1')).body.count;
    expect(stage.ids).toHaveLength(total);
    expect(new Set(stage.ids).size).toBe(total);
    const byReq = await pageThrough(`req_id=${reqId}`, 40);
    expect(byReq.ids).toHaveLength(90);
    const last = await list(`req_id=${reqId}&limit=200`);
    expect(last.body.next_cursor).toBeNull();
  });

  it('offset keeps working and its page also gives a cursor to continue from', async () => {
    const a = await list('limit=10&offset=20');
    expect(a.body.offset).toBe(20);
    const b = await list(`limit=10&cursor=${encodeURIComponent(a.body.next_cursor)}`);
    const c = await list('limit=10&offset=30');
    expect(b.body.data.map((x: { id: string }) => x.id)).toEqual(c.body.data.map((x: { id: string }) => x.id));
  });

  it('refuses an edited, truncated, foreign or mismatched cursor, and cursor with offset, with 400', async () => {
    const cursor = (await list('limit=5')).body.next_cursor as string;
    const [payload, mac] = cursor.split('.') as [string, string];
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const reencoded = (b: unknown) => Buffer.from(JSON.stringify(b)).toString('base64url');
    const other = await stack.tenant();
    const theirs = (await stack.call('GET', '/api/v1/candidates?limit=1', { token: await other.token(['*']) })).body;
    await seed(other.id, 3);
    const foreign = (await stack.call('GET', '/api/v1/candidates?limit=1', { token: await other.token(['*']) })).body.next_cursor as string;
    expect(theirs.next_cursor).toBeNull();
    const bad: [string, string, RegExp][] = [
      ['edited payload', `${reencoded({ ...body, k: { ...body.k, SK: 'CAND#00000000-0000-7000-8000-000000000000' } })}.${mac}`, /altered/],
      ['truncated', cursor.slice(0, -3), /altered/],
      ['garbage', 'not-a-cursor', /altered/],
      ['foreign', foreign, /another workspace/],
    ];
    for (const [what, c, message] of bad) {
      const res = await list(`limit=5&cursor=${encodeURIComponent(c)}`);
      expect(res.status, what).toBe(400);
      expect(res.body.error, what).toMatch(message);
    }
    const mismatch = await list(`limit=5&stage=applied&cursor=${encodeURIComponent(cursor)}`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toMatch(/filters/);
    const both = await list(`limit=5&offset=5&cursor=${encodeURIComponent(cursor)}`);
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/cursor or offset/);
  });
});
