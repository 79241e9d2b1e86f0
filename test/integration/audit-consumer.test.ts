/**
 * The audit log's intents against DynamoDB Local: a committed change always has its intent and a
 * cancelled one none; the table maintenance consumer expands an intent from its stream record
 * into one record item per record, and a redelivery changes nothing; the migration moves records
 * of the four-copy layout (single records and an import's groups) to one item per record, so every
 * view reads them once, and a rerun does nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../dev/events';
import { streamRecord } from '../helpers/lambda-records';
import { scanTable } from '../helpers/scan';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';
import { ddb, tableName } from '../../lib/store/client';
import { TransactWriteCommand, BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { auditPuts, auditGroupPuts, auditRecordItem } from '../../lib/store/audit';
import { queryAudit } from '../../lib/store/audit-query';
import { auditIntentsOf } from '../../lib/store/audit-expand';
import { handler } from '../../functions/stuck-reindex';
import { hasOldAuditCopies, migrateAudit } from '../../lib/store/audit-migrate';

let stack: Stack;
let t: TestTenant;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  t = await stack.tenant();
  token = await t.token(['*']);
}, 120_000);
afterAll(() => stack?.close());

const intentsOf = (tenantId: string) => auditIntentsOf(tenantId);
const recordsOf = (intents: Record<string, unknown>[]) =>
  intents.flatMap((i) => (i.records as { target_id: string }[]).map((r) => ({ ...(i.record as { action: string }), ...r })));

describe('no change without its record', () => {
  it('a committed change always has its intent; a cancelled one leaves none', async () => {
    const created = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Intent Req' } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    const of = async () => recordsOf(await intentsOf(t.id)).filter((r) => r.target_id === id);
    expect((await of()).map((r) => r.action)).toEqual(['requisition.created']);
    // A stale If-Match: the update's condition fails, its transaction is cancelled, and with it the intent.
    const stale = await stack.call('PATCH', `/api/v1/requisitions/${id}`, {
      token,
      body: { title: 'Stale' },
      headers: { 'If-Match': '"99"' },
    });
    expect(stale.status, stale.text).toBe(412);
    expect((await of()).map((r) => r.action)).toEqual(['requisition.created']);
    const fresh = await stack.call('PATCH', `/api/v1/requisitions/${id}`, { token, body: { title: 'Fresh' } });
    expect(fresh.status, fresh.text).toBe(200);
    expect((await of()).map((r) => r.action).sort()).toEqual(['requisition.created', 'requisition.updated']);
  });

  it('a transaction cancelled by any of its items writes no intent', async () => {
    const target = `cancelled-${randomUUID()}`;
    const refused = {
      ConditionCheck: { TableName: tableName(), Key: { PK: 'NOPE', SK: 'NOPE' }, ConditionExpression: 'attribute_exists(PK)' },
    };
    const entry = { action: 'x.tested', actor: { type: 'system' as const, id: 'test' }, target: { type: 'x', id: target } };
    await expect(ddb.send(new TransactWriteCommand({ TransactItems: [refused, ...auditPuts(t.id, entry)] }))).rejects.toThrow(/cancel/i);
    expect(recordsOf(await intentsOf(t.id)).filter((r) => r.target_id === target)).toEqual([]);
  });
});

describe('the table maintenance consumer', () => {
  it('expands an intent from its stream record into one record item each, and a redelivery changes nothing', async () => {
    const actor = { type: 'token' as const, id: `tok-${randomUUID()}`, name: 'Importer' };
    const entries = [1, 2, 3].map((n) => ({ action: 'candidate.created', actor, target: { type: 'candidate', id: `c-${n}` } }));
    const [put] = auditGroupPuts(t.id, entries);
    const record = streamRecord('INSERT', put!.Put.Item);
    const invoke = () => handler({ Records: [record] } as never, lambdaContext('stuck-reindex') as never);
    expect(await invoke()).toEqual({ batchItemFailures: [] });
    const read = async () => (await queryAudit(t.id, { actor: actor.id }, 100)).items;
    const first = await read();
    expect(first.map((i) => i.target_id).sort()).toEqual(['c-1', 'c-2', 'c-3']);
    expect(await invoke()).toEqual({ batchItemFailures: [] });
    expect(await read()).toEqual(first);
    for (const view of [{ target: 'c-2' }, { action: 'candidate.created', actor: actor.id }, {}])
      expect((await queryAudit(t.id, view, 100)).items.filter((i) => i.actor_id === actor.id).length, JSON.stringify(view)).toBe(
        'target' in view ? 1 : 3,
      );
  });

  it('reports an intent it cannot expand, so the stream retries it and then sets it aside', async () => {
    const poison = streamRecord('INSERT', {
      PK: `T#${t.id}#AUDITQ#0`,
      SK: 'x',
      type: 'audit_intent',
      tenant_id: t.id,
      record: {},
      records: [{ id: 'x' }],
    });
    const res = await handler({ Records: [poison] } as never, lambdaContext('stuck-reindex') as never);
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: poison.dynamodb!.SequenceNumber }] });
  });
});

/** The items the four-copy layout wrote for one record: the same record under each view's prefix. */
function oldCopies(tenantId: string, r: { id: string; at: string; actor: string; target: string; action: string }) {
  const record = {
    type: 'audit',
    id: r.id,
    at: r.at,
    action: r.action,
    actor_type: 'user',
    actor_id: r.actor,
    actor_email: 'old@example.com',
    target_type: 'candidate',
    target_id: r.target,
    changes: [{ field: 'stage', after: 'applied' }],
    expires_at: 2_000_000_000,
  };
  const PK = `T#${tenantId}#AUDIT`;
  const tail = `${r.at}#${r.id}`;
  return [`T#${tail}`, `A#${r.actor}#${tail}`, `O#${r.target}#${tail}`, `X#${r.action}#${tail}`].map((SK) => ({ PK, SK, ...record }));
}

/** An old group of records: each one's target copy, and one shared copy with `records` in each other view, at the first id. */
function oldGroup(tenantId: string, at: string, actor: string, targets: string[]) {
  const base = randomUUID().slice(0, 32);
  const ids = targets.map((_, n) => `${base}${n.toString(16).padStart(4, '0')}`);
  const shared = {
    type: 'audit',
    at,
    action: 'candidate.created',
    actor_type: 'token',
    actor_id: actor,
    actor_name: 'Old import',
    expires_at: 2_000_000_000,
  };
  const records = targets.map((target, n) => ({ id: ids[n]!, target_type: 'candidate', target_id: target, changes: [{ field: 'name' }] }));
  const PK = `T#${tenantId}#AUDIT`;
  return [
    ...records.map((r) => ({ PK, SK: `O#${r.target_id}#${at}#${r.id}`, ...shared, ...r })),
    ...[`T#`, `A#${actor}#`, `X#candidate.created#`].map((prefix) => ({
      PK,
      SK: `${prefix}${at}#${ids[0]}`,
      ...shared,
      id: ids[0],
      records,
    })),
  ];
}

describe('the migration from the four-copy layout', () => {
  it('moves single records and groups to one item per record, readable in every view once; a rerun does nothing', async () => {
    const ws = await stack.tenant();
    const at = (s: number) => `2026-04-01T10:00:0${s}.000Z`;
    const singles = [1, 2, 3].map((n) => ({
      id: randomUUID(),
      at: at(n),
      actor: 'u-old',
      target: `old-${n}`,
      action: 'candidate.updated',
    }));
    const items = [...singles.flatMap((r) => oldCopies(ws.id, r)), ...oldGroup(ws.id, at(4), 'tok-old', ['g-1', 'g-2', 'g-3'])];
    for (let i = 0; i < items.length; i += 25)
      await ddb.send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }),
      );
    expect(await hasOldAuditCopies(ws.id)).toBe(true);

    const lines: string[] = [];
    const done = await migrateAudit(ws.id, (l) => lines.push(l));
    // Deleted: 3 view copies of each single record; the group's 3 target copies and 2 shared copies.
    expect(done).toMatchObject({ records: 3, groups: 1, grouped: 3, deleted: 14 });
    expect(lines.length).toBeGreaterThan(0);
    expect(await hasOldAuditCopies(ws.id)).toBe(false);
    // One item per record, all under the all-records key.
    const stored = await scanTable({ FilterExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `T#${ws.id}#AUDIT` } });
    expect(stored).toHaveLength(6);
    for (const i of stored) {
      expect(String(i.SK)).toMatch(/^T#/);
      expect(i).not.toHaveProperty('records');
    }
    const all = (await queryAudit(ws.id, {}, 100)).items;
    expect(all.map((i) => i.target_id)).toEqual(['g-3', 'g-2', 'g-1', 'old-3', 'old-2', 'old-1']);
    const ids = (q: object) => queryAudit(ws.id, q, 100).then((p) => p.items.map((i) => i.id));
    expect(await ids({ actor: 'u-old' })).toEqual(singles.map((r) => r.id).reverse());
    expect(await ids({ actor: 'tok-old' })).toEqual(all.slice(0, 3).map((i) => i.id));
    expect(await ids({ action: 'candidate.created' })).toEqual(all.slice(0, 3).map((i) => i.id));
    expect(await ids({ target: 'g-2' })).toEqual([all[1]!.id]);
    expect(await ids({ target: 'old-1', action: 'candidate.updated' })).toEqual([singles[0]!.id]);
    expect(all.find((i) => i.target_id === 'g-2')).toMatchObject({
      actor_id: 'tok-old',
      actor_name: 'Old import',
      changes: [{ field: 'name' }],
    });

    const again = await migrateAudit(ws.id);
    expect(again).toMatchObject({ records: 0, groups: 0, grouped: 0, deleted: 0 });
    expect((await queryAudit(ws.id, {}, 100)).items).toEqual(all);
  });

  it('resumes a run stopped inside a group: its later records put, the shared copy not yet replaced', async () => {
    const ws = await stack.tenant();
    const items = oldGroup(ws.id, '2026-04-02T10:00:00.000Z', 'tok-half', ['h-1', 'h-2', 'h-3']);
    await ddb.send(new BatchWriteCommand({ RequestItems: { [tableName()]: items.map((Item) => ({ PutRequest: { Item } })) } }));
    // As a stopped first run left it: the group's later records put, the shared all-view copy still there.
    const shared = items.find((i) => String(i.SK).startsWith('T#'))!;
    const { PK: _p, SK: _s, records, id: _i, ...fields } = shared as Record<string, unknown>;
    await ddb.send(new PutCommand({ TableName: tableName(), Item: auditRecordItem(ws.id, { ...fields, ...(records as object[])[2]! }) }));
    expect(await migrateAudit(ws.id)).toMatchObject({ groups: 1, grouped: 3, deleted: 5 });
    const all = (await queryAudit(ws.id, {}, 100)).items;
    expect(all.map((i) => i.target_id)).toEqual(['h-3', 'h-2', 'h-1']);
    expect((await queryAudit(ws.id, { actor: 'tok-half' }, 100)).items).toEqual(all);
  });
});
