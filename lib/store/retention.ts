import { RETENTION_RULES, type RetentionRule } from '../model';
import { queryAll, queryPages, tableName } from './client';
import { changesPartition, keys, stagePartition, TABLE_DEF } from './table';

/** Days per rule; null (or absent) is off. */
export type RetentionDays = Record<RetentionRule, number | null>;

const REGISTRY = 'RETENTION';
const registryKey = (tenantId: string) => ({ PK: REGISTRY, SK: keys.tenantPartition(tenantId) });

/** The rules on a STATS item; absent rules are off. */
export function retentionOf(stats: Record<string, unknown>): RetentionDays {
  const r = (stats.retention ?? {}) as Record<string, unknown>;
  return Object.fromEntries(RETENTION_RULES.map((k) => [k, typeof r[k] === 'number' ? r[k] : null])) as RetentionDays;
}

/** The rules as STATS keeps them: only those switched on. */
export const keptRules = (retention: RetentionDays) =>
  Object.fromEntries(RETENTION_RULES.filter((k) => retention[k] !== null).map((k) => [k, retention[k]]));

/**
 * The registry's half of a save of the rules (lib/store/stuck.ts saveThresholds, in the same
 * transaction as STATS): a workspace with a rule on is listed for the daily run, one without is not.
 */
export const registryWrite = (tenantId: string, retention: RetentionDays) =>
  RETENTION_RULES.some((k) => retention[k] !== null)
    ? { Put: { TableName: tableName(), Item: { ...registryKey(tenantId), type: 'retention_registry', tenant_id: tenantId } } }
    : { Delete: { TableName: tableName(), Key: registryKey(tenantId) } };

/** Workspaces with a retention rule on: one Query of the registry. */
export async function workspacesWithRetention(): Promise<string[]> {
  const items = await queryAll({
    TableName: tableName(),
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
      TableName: tableName(),
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
