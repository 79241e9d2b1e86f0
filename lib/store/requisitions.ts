/** Requisitions. Each requisition item carries its own per-stage candidate counters. */
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { newId, nowIso } from '../ids';
import { STAGES, type ReqStatus, type Stage } from '../model';
import type { Requisition } from '../schemas';
import { ddb, tableName } from './client';
import { counter, keys, reqStatusIndexKey, reqStatusPartition, TABLE_DEF } from './table';

export interface NewRequisition {
  title: string;
  department?: string;
  location?: string;
  job_type?: string;
  status: ReqStatus;
}

export type RequisitionItem = Record<string, unknown> & { id: string; title: string; status: ReqStatus };

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
  return toRequisition(item as RequisitionItem);
}

export async function getRequisition(tenantId: string, id: string): Promise<RequisitionItem | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName, Key: keys.requisition(tenantId, id), ConsistentRead: true }),
  );
  return Item as RequisitionItem | undefined;
}

/** Newest first: the index sort key is the UUIDv7 id. */
export async function queryRequisitionsByStatus(tenantId: string, status: ReqStatus, limit: number) {
  const { byStatus } = TABLE_DEF.indexes;
  const { Items = [] } = await ddb.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: byStatus.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': byStatus.partitionKey },
      ExpressionAttributeValues: { ':pk': reqStatusPartition(tenantId, status) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return Items as RequisitionItem[];
}

export const reqStageCount = (item: Record<string, unknown>, stage?: Stage): number =>
  Number(item[stage ? counter.stage(stage) : 'c_total'] ?? 0);

export function toRequisition(item: RequisitionItem): Requisition {
  return {
    id: item.id,
    title: item.title,
    department: (item.department as string | undefined) ?? null,
    location: (item.location as string | undefined) ?? null,
    job_type: (item.job_type as string | undefined) ?? null,
    status: item.status,
    // The spec delivers counts as strings of digits.
    candidate_count: String(reqStageCount(item)),
    offers_pending: String(reqStageCount(item, 'offer_sent')),
    created_at: item.created_at as string,
  };
}
