import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { newId, nowIso } from '../ids';
import { REQ_STATUSES, STAGES, type ReqStatus, type Requisition, type Stage } from '../model';
import type { RequisitionSeen } from '../domain/requisition-rules';
import { ddb, prefixQuery, queryAll, tableName } from './client';
import { type Item, oneOf, optStr, str } from './codec';
import { auditPuts, type AuditEntry } from './audit';
import type { ActorRef } from './stage-history';
import { counter, keys, reqStatusIndexKey, reqStatusPartition, TABLE_DEF } from './table';
import { statsKeyFor } from './stuck';

/** The index a requisition's status partition lives in (its attribute names come from TABLE_DEF). */
export const BY_STATUS = TABLE_DEF.indexes.byStageOrStatus;

/** Who changed a requisition: a token, a user, or the service itself (an automatic `filled`). */
export type ReqActor = ActorRef | { type: 'system' };
export const SYSTEM: ReqActor = { type: 'system' };

export interface NewRequisition {
  title: string;
  department?: string;
  location?: string;
  job_type?: string;
  status: ReqStatus;
  /** Left out only by tools that predate headcounts: no limit, never filled by itself. */
  headcount?: number;
  /** Who created it; the service when left out (seed data, the table tools). */
  actor?: ReqActor;
  recruiter_id?: string;
  hiring_manager_ids?: string[];
}

/** A requisition item, its counters included (reqStageCount reads them). */
export type RequisitionItem = Item & { id: string; title: string; status: ReqStatus };

/** The requisition item's codec: narrows what callers read by name and keeps the counters untouched. */
export function requisitionItem(item: Item): RequisitionItem {
  return {
    ...item,
    id: str(item, 'id', 'requisition'),
    title: str(item, 'title', 'requisition'),
    status: oneOf(item, 'status', REQ_STATUSES, 'requisition'),
  };
}

export const actorAttrs = (actor: ReqActor) => ({
  actor_type: actor.type,
  ...(actor.type !== 'system' && {
    actor_id: actor.id,
    ...(actor.name !== undefined && { actor_name: actor.name }),
    ...(actor.email !== undefined && { actor_email: actor.email }),
  }),
});

export function actorFromItem(item: Item, entity: string): ReqActor {
  if (item.actor_type === 'token' || item.actor_type === 'user') {
    return {
      type: item.actor_type,
      id: str(item, 'actor_id', entity),
      ...(optStr(item, 'actor_name', entity) !== undefined && { name: optStr(item, 'actor_name', entity) }),
      ...(optStr(item, 'actor_email', entity) !== undefined && { email: optStr(item, 'actor_email', entity) }),
    };
  }
  return SYSTEM;
}

/** One recorded status change: `from` is null for the status the requisition was created in. */
export interface ReqStatusChange {
  from: ReqStatus | null;
  to: ReqStatus;
  reason: string | null;
  actor: ReqActor;
  at: string;
}

export function statusChangePut(tenantId: string, req: { id: string; title: string }, version: number, change: ReqStatusChange) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.reqStatusChange(tenantId, req.id, version),
        type: 'requisition_status',
        tenant_id: tenantId,
        req_id: req.id,
        req_title: req.title,
        version,
        ...(change.from && { from_status: change.from }),
        to_status: change.to,
        ...(change.reason !== null && { reason: change.reason }),
        at: change.at,
        ...actorAttrs(change.actor),
      },
      // The version names the change: two writers can never both record the same one.
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

const statusChangeFromItem = (item: Item): ReqStatusChange => ({
  from: item.from_status === undefined ? null : oneOf(item, 'from_status', REQ_STATUSES, 'requisition_status'),
  to: oneOf(item, 'to_status', REQ_STATUSES, 'requisition_status'),
  reason: optStr(item, 'reason', 'requisition_status') ?? null,
  actor: actorFromItem(item, 'requisition_status'),
  at: str(item, 'at', 'requisition_status'),
});

export const statsStatusMove = (tenantId: string, deltas: Record<string, number>) => ({
  Update: {
    TableName: tableName(),
    Key: statsKeyFor(tenantId),
    UpdateExpression: `ADD ${Object.keys(deltas)
      .map((_, i) => `#r${i} :r${i}`)
      .join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(Object.keys(deltas).map((k, i) => [`#r${i}`, k])),
    ExpressionAttributeValues: Object.fromEntries(Object.values(deltas).map((v, i) => [`:r${i}`, v])),
  },
});

/**
 * Create a requisition at version 1, with its first history record (from null), in one
 * transaction with the tenant's status counter.
 */
export async function createRequisition(tenantId: string, input: NewRequisition, id = newId(), audit?: AuditEntry): Promise<Requisition> {
  const { actor = SYSTEM, headcount, ...fields } = input;
  const now = nowIso();
  const item = {
    ...keys.requisition(tenantId, id),
    ...reqStatusIndexKey(tenantId, input.status, id),
    type: 'requisition',
    tenant_id: tenantId,
    id,
    ...fields,
    ...(headcount !== undefined && { headcount, fill_at: headcount - 1 }),
    version: 1,
    created_at: now,
    updated_at: now,
    ...actorAttrs(actor),
    // Counters start at zero and change in the same transaction as every candidate write.
    c_total: 0,
    ...Object.fromEntries(STAGES.map((s) => [counter.stage(s), 0])),
  };
  await ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
        statusChangePut(tenantId, { id, title: input.title }, 1, { from: null, to: input.status, reason: null, actor, at: now }),
        statsStatusMove(tenantId, { [counter.reqStatus(input.status)]: 1 }),
        ...(audit ? auditPuts(tenantId, audit) : []),
      ],
    }),
  );
  return toRequisition(requisitionItem(item));
}

export async function getRequisition(tenantId: string, id: string): Promise<RequisitionItem | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.requisition(tenantId, id), ConsistentRead: true }));
  return Item && requisitionItem(Item);
}

/** A requisition and its status changes, oldest first: one Query over its sort-key range. */
export async function getRequisitionWithHistory(
  tenantId: string,
  id: string,
): Promise<{ item: RequisitionItem; history: ReqStatusChange[] } | undefined> {
  const items = await queryAll({
    ...prefixQuery(keys.tenantPartition(tenantId), keys.reqWithHistoryPrefix(id)),
    ScanIndexForward: true,
    ConsistentRead: true,
  });
  const head = items.find((i) => i.type === 'requisition');
  if (!head) return undefined;
  return { item: requisitionItem(head), history: items.filter((i) => i.type === 'requisition_status').map(statusChangeFromItem) };
}

/** Newest first: the index sort key is the UUIDv7 id. */
export async function queryRequisitionsByStatus(tenantId: string, status: ReqStatus, limit: number) {
  const { byStageOrStatus } = TABLE_DEF.indexes;
  const { Items = [] } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
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

/**
 * The requisitions whose team names this member as a hiring manager, in every status: one Query
 * per status partition of the status index, filtered on the team (requisitions have no other
 * index by member). At most `cap` of them, newest first.
 */
export async function queryTeamRequisitions(tenantId: string, userId: string, cap: number): Promise<RequisitionItem[]> {
  const { byStageOrStatus } = TABLE_DEF.indexes;
  const perStatus = await Promise.all(
    REQ_STATUSES.map((status) =>
      queryAll({
        TableName: tableName(),
        IndexName: byStageOrStatus.name,
        KeyConditionExpression: '#pk = :pk',
        FilterExpression: 'contains(#team, :me)',
        ExpressionAttributeNames: { '#pk': byStageOrStatus.partitionKey, '#team': 'hiring_manager_ids' },
        ExpressionAttributeValues: { ':pk': reqStatusPartition(tenantId, status), ':me': userId },
        ScanIndexForward: false,
      }),
    ),
  );
  return perStatus
    .flat()
    .map(requisitionItem)
    .sort((a, b) => b.id.localeCompare(a.id))
    .slice(0, cap);
}

export const reqStageCount = (item: Record<string, unknown>, stage?: Stage): number =>
  Number(item[stage ? counter.stage(stage) : 'c_total'] ?? 0);

/** The version an item is at: 0 for items written before requisitions had one. */
export const reqVersion = (item: Item): number => (typeof item.version === 'number' ? item.version : 0);
export const reqHeadcount = (item: Item): number | null => (typeof item.headcount === 'number' ? item.headcount : null);
/** A requisition item as a candidate write's rule reads it (requisitionPart); undefined for none. */
export function requisitionSeen(raw: Item | undefined): RequisitionSeen | undefined {
  if (!raw) return undefined;
  const item = requisitionItem(raw);
  return {
    id: item.id,
    title: item.title,
    status: item.status,
    version: reqVersion(item),
    hires: reqStageCount(item, 'placed'),
    headcount: reqHeadcount(item),
  };
}

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
    offers_pending: String(Number(item[counter.offersSent] ?? 0)),
    created_at: str(item, 'created_at', 'requisition'),
  };
}

/** The condition that the item is still at the version it was read at. */
export const versionIs = (item: Item) =>
  reqVersion(item) === 0 ? { expr: 'attribute_not_exists(#v)', values: {} } : { expr: '#v = :v', values: { ':v': reqVersion(item) } };
