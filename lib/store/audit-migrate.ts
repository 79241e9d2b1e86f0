/**
 * The audit log's migration from the four-copy layout (each record under `T#`, `A#<actor>#`,
 * `O#<target>#` and `X#<action>#` sort keys of `T#<tenant>#AUDIT`; an import's group as one target
 * copy per record plus a shared copy with a `records` list in each other view) to one item per
 * record with its view entries on the indexes (lib/store/audit.ts). Run once per workspace after
 * deploying (`npm run admin -- audit migrate <slug>|--all`), and by `npm start` on a data
 * directory that still holds old copies. With the operator's credentials: the Lambda roles' Deny
 * on the audit partitions does not bind it.
 *
 * Idempotent and resumable: first every old all-view copy gets its view entries (a group's shared
 * copy becomes its records), then the `A#`, `O#` and `X#` copies are deleted; the records they
 * duplicate exist by then. A rerun skips records that have their entries and deletes what is left.
 */
import { BatchWriteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AUDIT_ALL_PREFIX, auditRecordItem, auditViewKeys } from './audit';
import { settleAuditIntents } from './audit-expand';
import { ddb, prefixQuery, queryPages, tableName } from './client';
import { keys } from './table';

/** Sort-key prefixes of the old layout's per-view copies. */
export const OLD_VIEW_PREFIXES = ['A#', 'O#', 'X#'] as const;

export interface MigrationProgress {
  /** Old single records given their view entries. */
  records: number;
  /** Old groups' shared copies expanded, and the records they held. */
  groups: number;
  grouped: number;
  /** Old per-view copies deleted. */
  deleted: number;
  /** Pending intents read, and the records they still lacked. */
  intents: number;
  expanded: number;
}

/** Whether a workspace still holds copies of the old layout: one Query of one item (every old record or group had an actor copy). */
export async function hasOldAuditCopies(tenantId: string): Promise<boolean> {
  for await (const page of queryPages(prefixQuery(keys.auditPartition(tenantId), 'A#'), { limit: () => 1 })) {
    return (page.Items?.length ?? 0) > 0;
  }
  return false;
}

const ACTOR_INDEX_PK = 'GSI1PK';

/** Migrate one workspace's log; `log` gets a line per page of progress. */
export async function migrateAudit(tenantId: string, log: (line: string) => void = () => {}): Promise<MigrationProgress> {
  const p: MigrationProgress = { records: 0, groups: 0, grouped: 0, deleted: 0, intents: 0, expanded: 0 };
  const pk = keys.auditPartition(tenantId);
  for await (const page of queryPages(prefixQuery(pk, AUDIT_ALL_PREFIX))) {
    for (const item of page.Items ?? []) {
      if (Array.isArray(item.records)) await expandGroup(tenantId, item, p);
      else if (item[ACTOR_INDEX_PK] === undefined) {
        await ddb.send(new UpdateCommand(setViewKeys(tenantId, item)));
        p.records++;
      }
    }
    log(`audit migrate ${tenantId}: ${p.records} records given their view entries, ${p.groups} groups expanded into ${p.grouped} records`);
  }
  for (const prefix of OLD_VIEW_PREFIXES) {
    for await (const page of queryPages({ ...prefixQuery(pk, prefix), ProjectionExpression: 'PK, SK' })) {
      const stale = page.Items ?? [];
      for (let i = 0; i < stale.length; i += 25) await deleteAll(stale.slice(i, i + 25));
      p.deleted += stale.length;
      if (stale.length) log(`audit migrate ${tenantId}: ${p.deleted} old view copies deleted`);
    }
  }
  const settled = await settleAuditIntents(tenantId);
  p.intents = settled.intents;
  p.expanded = settled.records;
  return p;
}

/** The UpdateItem that gives an old all-view copy its entries in the three views (only if it has none yet). */
function setViewKeys(tenantId: string, item: Record<string, unknown>) {
  const entries = auditViewKeys(tenantId, item, String(item.at), String(item.id));
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(entries).map(([attr, value], i) => {
    names[`#k${i}`] = attr;
    values[`:k${i}`] = value;
    return `#k${i} = :k${i}`;
  });
  names['#a'] = ACTOR_INDEX_PK;
  return {
    TableName: tableName(),
    Key: { PK: item.PK, SK: item.SK },
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#a)',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * A group's shared all-view copy becomes its records: each one's item is put where absent, the
 * first last, replacing the shared copy itself (it sits at the first record's key). A rerun after
 * a stop finds either the shared copy again (and puts what is missing) or the first record.
 */
async function expandGroup(tenantId: string, shared: Record<string, unknown>, p: MigrationProgress) {
  const { PK: _pk, SK: _sk, type: _type, records, id: _id, ...fields } = shared;
  const items = (records as Record<string, unknown>[]).map((r) => auditRecordItem(tenantId, { ...fields, ...r }));
  const [first, ...rest] = items;
  await Promise.all(
    rest.map((Item) =>
      ddb.send(new PutCommand({ TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' })).catch((err: Error) => {
        if (err.name !== 'ConditionalCheckFailedException') throw err;
      }),
    ),
  );
  if (first) {
    if (first.SK !== shared.SK) throw new Error(`audit group ${String(shared.SK)} is not at its first record's key`);
    // Replaces the shared copy only while it is one: a record already there stays as it is.
    await ddb.send(
      new PutCommand({
        TableName: tableName(),
        Item: first,
        ConditionExpression: 'attribute_exists(#r)',
        ExpressionAttributeNames: { '#r': 'records' },
      }),
    );
  }
  p.groups++;
  p.grouped += items.length;
}

async function deleteAll(items: Record<string, unknown>[]) {
  let requests = items.map((i) => ({ DeleteRequest: { Key: { PK: i.PK, SK: i.SK } } }));
  for (let attempt = 0; requests.length; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(2_000, 50 * 2 ** attempt)));
    const res = await ddb.send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
    requests = (res.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
    if (attempt > 8 && requests.length) throw new Error('audit migrate: deletes still unprocessed after retries');
  }
}

/** Every workspace's id (the slug items): for `--all` and `npm start`. An operator's Scan, never a request path. */
export async function allTenantIds(): Promise<string[]> {
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const ids: string[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '#t = :slug',
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: { ':slug': 'slug' },
        ProjectionExpression: 'tenant_id',
        ExclusiveStartKey,
      }),
    );
    for (const i of page.Items ?? []) ids.push(String(i.tenant_id));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return ids;
}
