/** Requisitions. Each requisition item carries its own per-stage candidate counters. */
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { newId, nowIso } from '../ids';
import { REQ_STATUSES, STAGES, type ReqStatus, type Requisition, type Stage } from '../model';
import { ddb, tableName } from './client';
import { type Item, oneOf, optStr, str } from './codec';
import { counter, keys, reqStatusIndexKey, reqStatusPartition, TABLE_DEF } from './table';

export interface NewRequisition {
  title: string;
  department?: string;
  location?: string;
  job_type?: string;
  status: ReqStatus;
}

/** A requisition item, its counters included (reqStageCount reads them). */
export type RequisitionItem = Item & { id: string; title: string; status: ReqStatus };

/** The requisition item's codec: narrows what callers read by name and keeps the counters untouched. */
function requisitionItem(item: Item): RequisitionItem {
  return { ...item, id: str(item, 'id', 'requisition'), title: str(item, 'title', 'requisition'), status: oneOf(item, 'status', REQ_STATUSES, 'requisition') };
}

export async function createRequisition(
  tenantId: string,
  input: NewRequisition,
  id = newId(),
): Promise<Requisition> {
  const item = {
    ...keys.requisition(tenantId, id),
    ...reqStatusIndexKey(tenantId, input.status, id),
    type: 'requisition',
    id,
    ...input,
    created_at: nowIso(),
    // Counters start at zero and change in the same transaction as every candidate write.
    c_total: 0,
    ...Object.fromEntries(STAGES.map((s) => [counter.stage(s), 0])),
  };
  await ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
        {
          Update: {
            TableName: tableName,
            Key: keys.stats(tenantId),
            UpdateExpression: 'ADD #c :one',
            ExpressionAttributeNames: { '#c': counter.reqStatus(input.status) },
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
      ],
    }),
  );
  return toRequisition(requisitionItem(item));
}

export async function getRequisition(tenantId: string, id: string): Promise<RequisitionItem | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName, Key: keys.requisition(tenantId, id), ConsistentRead: true }),
  );
  return Item && requisitionItem(Item);
}

/** Newest first: the index sort key is the UUIDv7 id. */
export async function queryRequisitionsByStatus(tenantId: string, status: ReqStatus, limit: number) {
  const { byStageOrStatus } = TABLE_DEF.indexes;
  const { Items = [] } = await ddb.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: byStageOrStatus.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': byStageOrStatus.partitionKey },
      ExpressionAttributeValues: { ':pk': reqStatusPartition(tenantId, status) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return Items.map(requisitionItem);
}

export const reqStageCount = (item: Record<string, unknown>, stage?: Stage): number =>
  Number(item[stage ? counter.stage(stage) : 'c_total'] ?? 0);

export function toRequisition(item: RequisitionItem): Requisition {
  return {
    id: item.id,
    title: item.title,
    department: optStr(item, 'department', 'requisition') ?? null,
    location: optStr(item, 'location', 'requisition') ?? null,
    job_type: optStr(item, 'job_type', 'requisition') ?? null,
    status: item.status,
    // The spec delivers counts as strings of digits.
    candidate_count: String(reqStageCount(item)),
    offers_pending: String(reqStageCount(item, 'offer_sent')),
    created_at: str(item, 'created_at', 'requisition'),
  };
}
