/**
 * Placements in the table (`PLACEMENT#<id>` in the tenant partition, written with the move into
 * `placed`: lib/store/candidates.ts placementItem) and their list: GSI4 in the tenant's own
 * placements partition, by last change, so a page is one Query whatever the filters.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { auditPuts, type AuditEntry } from './audit';
import { keys, placementChangeIndexKey, placementChangesPartition, TABLE_DEF, type PageKeyShape } from './table';
import { writeParts, type TxOutcome } from './tx';
import { $remove, update } from './update';

type Item = Record<string, unknown>;

const { byChange } = TABLE_DEF.indexes;

export async function getPlacementItem(tenantId: string, id: string): Promise<Item | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.placement(tenantId, id), ConsistentRead: true }));
  return Item;
}

/** Where a page of placements ends: the table's key and the index's, in the tenant's own partitions. */
export const placementPageKey = (tenantId: string): PageKeyShape => ({
  attrs: [TABLE_DEF.partitionKey, TABLE_DEF.sortKey, byChange.partitionKey, byChange.sortKey],
  partitions: { [TABLE_DEF.partitionKey]: keys.tenantPartition(tenantId), [byChange.partitionKey]: placementChangesPartition(tenantId) },
  sortKey: /^PLACEMENT#[0-9a-f-]{36}$/,
});

export interface PlacementFilter {
  /** toISOString() form: changes at or after it. */
  since?: string;
  reqId?: string;
  /** Only these requisitions' (a hiring manager's team: at most MAX_TEAM_REQUISITIONS, within the 100 an IN takes). */
  reqIds?: readonly string[];
  status?: string;
}

/**
 * One page: one Query, oldest change first. The filters apply after the read, so a page may hold
 * fewer than `limit` and still have a next one (`lastKey`).
 */
export async function queryPlacements(
  tenantId: string,
  f: PlacementFilter,
  limit: number,
  startKey?: Record<string, string>,
): Promise<{ items: Item[]; lastKey?: Item }> {
  const names: Record<string, string> = { '#pk': byChange.partitionKey };
  const values: Record<string, unknown> = { ':pk': placementChangesPartition(tenantId) };
  let condition = '#pk = :pk';
  if (f.since) {
    names['#sk'] = byChange.sortKey;
    values[':since'] = f.since;
    condition += ' AND #sk >= :since';
  }
  const filters: string[] = [];
  if (f.reqId) {
    names['#req'] = 'req_id';
    values[':req'] = f.reqId;
    filters.push('#req = :req');
  }
  if (f.reqIds) {
    names['#req'] = 'req_id';
    f.reqIds.forEach((id, i) => {
      values[`:r${i}`] = id;
    });
    filters.push(`#req IN (${f.reqIds.map((_, i) => `:r${i}`).join(', ')})`);
  }
  if (f.status) {
    names['#st'] = 'status';
    values[':st'] = f.status;
    // Placements written before they had a status are active.
    filters.push(f.status === 'active' ? '(#st = :st OR attribute_not_exists(#st))' : '#st = :st');
  }
  const { Items = [], LastEvaluatedKey } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: byChange.name,
      KeyConditionExpression: condition,
      ...(filters.length && { FilterExpression: filters.join(' AND ') }),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      Limit: limit,
      ...(startKey && { ExclusiveStartKey: startKey }),
    }),
  );
  return { items: Items, ...(LastEvaluatedKey && { lastKey: LastEvaluatedKey }) };
}

/**
 * Cancel an active placement as part of its candidate's move out of `placed` (with the move's
 * counters, so `hires` and the active placements stay one count); refused when it is no longer
 * active.
 */
export function placementCancelUpdate(tenantId: string, id: string, at: string, reason: string) {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.placement(tenantId, id),
      ...update(
        { status: 'cancelled', cancelled_at: at, cancel_reason: reason, updated_at: at, ...placementChangeIndexKey(tenantId, at, id) },
        { expression: 'attribute_exists(PK) AND #st = :active', names: { '#st': 'status' }, values: { ':active': 'active' } },
      ),
    },
  };
}

export type PlacementParts = 'placement' | 'audit';

/**
 * Change a placement as it was read (its `updated_at`, or none on one written before it had one):
 * `set` and `remove` its attributes, move it to the end of the list (its index sort key), and put
 * the audit intent, in one transaction. A refusal hands back the placement as it is now.
 */
export function writePlacementChange(
  tenantId: string,
  current: Item,
  set: Item,
  remove: readonly string[],
  audit: AuditEntry | undefined,
): Promise<TxOutcome<PlacementParts>> {
  const at = String(set.updated_at);
  const changes: Item = { ...set, ...placementChangeIndexKey(tenantId, at, String(current.id)) };
  for (const f of remove) changes[f] = $remove();
  return writeParts<PlacementParts>({
    placement: {
      Update: {
        TableName: tableName(),
        Key: keys.placement(tenantId, String(current.id)),
        ...update(changes, {
          expression:
            current.updated_at === undefined ? 'attribute_exists(PK) AND attribute_not_exists(#u)' : 'attribute_exists(PK) AND #u = :seen',
          names: { '#u': 'updated_at' },
          values: current.updated_at === undefined ? {} : { ':seen': current.updated_at },
        }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    audit: audit && auditPuts(tenantId, audit),
  });
}
