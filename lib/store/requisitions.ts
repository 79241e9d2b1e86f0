import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError, StaleRequisitionError, StaleStatusError, ConflictError } from '../errors';
import { newId, nowIso } from '../ids';
import { REQ_STATUSES, STAGES, type ReqStatus, type Requisition, type Stage } from '../model';
import { HeadcountBelowHiresError, judgeTransition, type RequisitionSeen } from '../domain/requisition-rules';
import { checkTimeBudget } from '../time-budget';
import { ddb, prefixQuery, queryAll, tableName } from './client';
import { type Item, oneOf, optStr, str } from './codec';
import { patchDiff } from './update';
import { auditPuts, type AuditEntry } from './audit';
import type { ActorRef } from './stage-history';
import { counter, keys, reqStatusIndexKey, reqStatusPartition, TABLE_DEF } from './table';
import { backoff, cancellationReasons, isTransactionConflict, itemSeen, MAX_ATTEMPTS } from './tx';

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

const actorAttrs = (actor: ReqActor) => ({
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
      TableName: tableName,
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

const statsStatusMove = (tenantId: string, deltas: Record<string, number>) => ({
  Update: {
    TableName: tableName,
    Key: keys.stats(tenantId),
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
        { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
        statusChangePut(tenantId, { id, title: input.title }, 1, { from: null, to: input.status, reason: null, actor, at: now }),
        statsStatusMove(tenantId, { [counter.reqStatus(input.status)]: 1 }),
        ...(audit ? auditPuts(tenantId, audit) : []),
      ],
    }),
  );
  return toRequisition(requisitionItem(item));
}

export async function getRequisition(tenantId: string, id: string): Promise<RequisitionItem | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: keys.requisition(tenantId, id), ConsistentRead: true }));
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
    offers_pending: String(reqStageCount(item, 'offer_sent')),
    created_at: str(item, 'created_at', 'requisition'),
  };
}

/** The condition that the item is still at the version it was read at. */
export const versionIs = (item: Item) =>
  reqVersion(item) === 0 ? { expr: 'attribute_not_exists(#v)', values: {} } : { expr: '#v = :v', values: { ':v': reqVersion(item) } };

/** The fields PATCH may change; `null` clears an optional one. */
export interface RequisitionPatch {
  title?: string;
  department?: string | null;
  location?: string | null;
  job_type?: string | null;
  headcount?: number;
}
const PATCH_FIELDS = ['title', 'department', 'location', 'job_type', 'headcount'] as const;

/**
 * Change a requisition's fields: one GetItem, then one UpdateItem conditioned on the version
 * read (and, for a headcount, on the hires staying at or below it). With `ifVersion` (If-Match),
 * any other version is a 412; without it a lost race decides again on what the winner left.
 * A change to nothing writes nothing.
 */
export async function updateRequisitionFields(
  tenantId: string,
  id: string,
  patch: RequisitionPatch,
  opts: { ifVersion?: number; actor: ReqActor; audit?: (before: RequisitionItem, after: RequisitionItem) => AuditEntry },
): Promise<{ item: RequisitionItem; changed: string[] }> {
  let current = await getRequisition(tenantId, id);
  for (let attempt = 1; ; attempt++) {
    if (!current) throw new NotFoundError('requisition');
    if (opts.ifVersion !== undefined && reqVersion(current) !== opts.ifVersion) throw new StaleRequisitionError();
    const { set, remove } = patchDiff(current, patch, PATCH_FIELDS);
    if (!Object.keys(set).length && !remove.length) return { item: current, changed: [] };
    checkTimeBudget();
    const changed = [...Object.keys(set), ...remove];
    const hires = reqStageCount(current, 'placed');
    if (typeof set.headcount === 'number') {
      if (set.headcount < hires) throw new HeadcountBelowHiresError(hires, set.headcount);
      set.fill_at = set.headcount - 1;
    }
    const at = nowIso();
    const version = reqVersion(current) + 1;
    Object.assign(set, { updated_at: at, version, ...actorAttrs(opts.actor) });
    // An actor without a name or email must not keep the previous actor's.
    if (opts.actor.type === 'system' || opts.actor.name === undefined) remove.push('actor_name');
    if (opts.actor.type === 'system' || opts.actor.email === undefined) remove.push('actor_email');
    if (opts.actor.type === 'system') remove.push('actor_id');
    const cond = versionIs(current);
    const names: Record<string, string> = { '#v': 'version' };
    const values: Record<string, unknown> = { ...cond.values };
    const sets = Object.entries(set).map(([k, v], i) => {
      names[`#s${i}`] = k;
      values[`:s${i}`] = v;
      return `#s${i} = :s${i}`;
    });
    const removes = remove.map((k, i) => {
      names[`#r${i}`] = k;
      return `#r${i}`;
    });
    let condition = `attribute_exists(PK) AND ${cond.expr}`;
    if (typeof set.headcount === 'number') {
      // Placements do not change the version: the hires are checked as they are at the write.
      names['#placed'] = counter.stage('placed');
      values[':hc'] = set.headcount;
      condition += ' AND (attribute_not_exists(#placed) OR #placed <= :hc)';
    }
    // A transaction, not an UpdateItem, so the audit record goes with the change; it returns no
    // item, so the one written is the one read with the changes applied.
    const after = { ...current, ...set } as RequisitionItem;
    for (const f of remove) delete (after as Item)[f];
    try {
      await ddb.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: keys.requisition(tenantId, id),
                UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
                ConditionExpression: condition,
                ExpressionAttributeNames: names,
                ExpressionAttributeValues: values,
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            ...(opts.audit ? auditPuts(tenantId, opts.audit(current, after)) : []),
          ],
        }),
      );
      return { item: requisitionItem(after), changed: changed.filter((f) => f !== 'fill_at') };
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (!reasons) throw err;
      if (reasons[0]?.Code === 'ConditionalCheckFailed') {
        const seen = itemSeen(reasons[0]) as RequisitionItem | undefined;
        current = seen && requisitionItem(seen);
      } else if (isTransactionConflict(reasons)) current = await getRequisition(tenantId, id);
      else throw err;
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('requisition is being changed concurrently; try again');
      await backoff(attempt);
    }
  }
}

/**
 * Change a requisition's status: one GetItem, then one transaction (the requisition at the
 * version read, its history record numbered by the new version, the tenant's status counters).
 * A lost race decides again on what the winner left, so parallel changes leave one chain of
 * records, each starting where the one before ended.
 */
export async function changeStatus(
  tenantId: string,
  id: string,
  to: ReqStatus,
  opts: { reason?: string; fromStatus?: ReqStatus; actor: ReqActor; audit?: (from: ReqStatus) => AuditEntry },
): Promise<{ item: RequisitionItem; change?: ReqStatusChange }> {
  let current = await getRequisition(tenantId, id);
  for (let attempt = 1; ; attempt++) {
    if (!current) throw new NotFoundError('requisition');
    const from = current.status;
    if (opts.fromStatus && from !== opts.fromStatus) throw new StaleStatusError(from, opts.fromStatus);
    if (judgeTransition(from, to) === 'noop') return { item: current };
    checkTimeBudget();
    const at = nowIso();
    const version = reqVersion(current) + 1;
    const change: ReqStatusChange = { from, to, reason: opts.reason ?? null, actor: opts.actor, at };
    const cond = versionIs(current);
    const after = { ...current, ...reqStatusIndexKey(tenantId, to, id), status: to, version, updated_at: at };
    try {
      await ddb.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: keys.requisition(tenantId, id),
                UpdateExpression: 'SET #status = :to, #v = :nv, updated_at = :at, #gpk = :gpk, #gsk = :gsk',
                ConditionExpression: `attribute_exists(PK) AND #status = :from AND ${cond.expr}`,
                ExpressionAttributeNames: {
                  '#status': 'status',
                  '#v': 'version',
                  '#gpk': BY_STATUS.partitionKey,
                  '#gsk': BY_STATUS.sortKey,
                },
                ExpressionAttributeValues: {
                  ...cond.values,
                  ':to': to,
                  ':from': from,
                  ':nv': version,
                  ':at': at,
                  ':gpk': after[BY_STATUS.partitionKey],
                  ':gsk': after[BY_STATUS.sortKey],
                },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            statusChangePut(tenantId, current, version, change),
            statsStatusMove(tenantId, { [counter.reqStatus(from)]: -1, [counter.reqStatus(to)]: 1 }),
            ...(opts.audit ? auditPuts(tenantId, opts.audit(from)) : []),
          ],
        }),
      );
      return { item: after, change };
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (!reasons) throw err;
      if (reasons[0]?.Code === 'ConditionalCheckFailed') {
        const seen = itemSeen(reasons[0]);
        current = seen && requisitionItem(seen);
      } else if (!isTransactionConflict(reasons) && reasons[1]?.Code !== 'ConditionalCheckFailed') {
        throw err;
      } else {
        current = await getRequisition(tenantId, id);
      }
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('requisition is being changed concurrently; try again');
      await backoff(attempt);
    }
  }
}
