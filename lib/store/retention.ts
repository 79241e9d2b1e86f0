/**
 * Retention rules: a workspace's rules live on its STATS item (`retention`, beside the stuck
 * thresholds, so the settings page reads both with one GetItem). A workspace with a rule on is
 * also listed in the `RETENTION` partition (one small item each: its id), so the daily run finds
 * the workspaces to visit with one Query and no Scan. The candidates a rule matches come from the
 * indexes the lists already use: the rejected stage ordered by entry time (GSI1), and every
 * candidate ordered by last change (GSI4); one Query each, from the oldest up to the cutoff.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../errors';
import { RETENTION_RULES, type RetentionRule } from '../model';
import { ddb, queryAll, queryPages, tableName } from './client';
import { changesPartition, keys, STUCK_JOB_PENDING, stagePartition, TABLE_DEF } from './table';
import { cancellationReasons } from './tx';
import type { StuckDays, Thresholds } from './stuck';

/** Days per rule; null (or absent) is off. */
export type RetentionDays = Record<RetentionRule, number | null>;

const REGISTRY = 'RETENTION';
const registryKey = (tenantId: string) => ({ PK: REGISTRY, SK: keys.tenantPartition(tenantId) });

/** The rules on a STATS item; absent rules are off. */
export function retentionOf(stats: Record<string, unknown>): RetentionDays {
  const r = (stats.retention ?? {}) as Record<string, unknown>;
  return Object.fromEntries(RETENTION_RULES.map((k) => [k, typeof r[k] === 'number' ? r[k] : null])) as RetentionDays;
}

/**
 * The stuck-threshold save (lib/store/stuck.ts) with the retention rules: one transaction, the
 * STATS update and the workspace's entry in the registry (put while a rule is on, deleted when
 * both are off).
 */
export async function saveWithRetention(
  tenantId: string,
  overrides: StuckDays,
  retention: RetentionDays,
): Promise<Thresholds & { retention: RetentionDays }> {
  const on = RETENTION_RULES.some((k) => retention[k] !== null);
  const kept = Object.fromEntries(RETENTION_RULES.filter((k) => retention[k] !== null).map((k) => [k, retention[k]]));
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName,
              Key: keys.stats(tenantId),
              UpdateExpression:
                'SET stuck_days = :d, stuck_v = if_not_exists(stuck_v, :zero) + :one, stuck_job = :pending, retention = :r REMOVE stuck_cursor',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':d': overrides, ':zero': 0, ':one': 1, ':pending': STUCK_JOB_PENDING, ':r': kept },
            },
          },
          on
            ? { Put: { TableName: tableName, Item: { ...registryKey(tenantId), type: 'retention_registry', tenant_id: tenantId } } }
            : { Delete: { TableName: tableName, Key: registryKey(tenantId) } },
        ],
      }),
    );
  } catch (err) {
    if (cancellationReasons(err)?.[0]?.Code === 'ConditionalCheckFailed' || err instanceof ConditionalCheckFailedException) {
      throw new NotFoundError('workspace');
    }
    throw err;
  }
  // The version is learnt from the next write's condition (lib/store/stuck.ts).
  return { version: 0, overrides, retention };
}

/** Workspaces with a retention rule on: one Query of the registry. */
export async function workspacesWithRetention(): Promise<string[]> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': REGISTRY },
  });
  return items.map((i) => String(i.tenant_id));
}

/**
 * Ids of the not yet erased candidates a rule matches at `cutoff` (an ISO time), oldest first,
 * at most `limit`. Erased candidates stay in both indexes (stage counts and the sync feed list
 * them), so they are filtered out.
 */
export async function matchingCandidates(tenantId: string, rule: RetentionRule, cutoff: string, limit: number): Promise<string[]> {
  const index = rule === 'rejected_days' ? TABLE_DEF.indexes.byStageOrStatus : TABLE_DEF.indexes.byChange;
  const partition = rule === 'rejected_days' ? stagePartition(tenantId, 'rejected') : changesPartition(tenantId);
  const ids: string[] = [];
  for await (const page of queryPages(
    {
      TableName: tableName,
      IndexName: index.name,
      // `<time>#<id>` sorts before `<cutoff>` exactly when the time is before it.
      KeyConditionExpression: '#pk = :pk AND #sk < :cutoff',
      FilterExpression: 'attribute_not_exists(erased_at)',
      ProjectionExpression: 'id',
      ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
      ExpressionAttributeValues: { ':pk': partition, ':cutoff': cutoff },
      ScanIndexForward: true,
    },
    { limit: () => 500 },
  )) {
    for (const i of page.Items ?? []) {
      ids.push(String(i.id));
      if (ids.length >= limit) return ids;
    }
  }
  return ids;
}
