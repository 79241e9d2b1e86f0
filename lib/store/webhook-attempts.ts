/**
 * Delivery attempts: the delivery log, one item per attempt in the tenant's webhook partition
 * (`ATT#<webhookId>#<attemptId>`, UUIDv7 ids, so an endpoint's attempts sort by time).
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '../ids';
import type { DeliveryRecord } from '../model';
import { ddb, prefixQuery, queryAll, queryPages, tableName } from './client';
import { attemptFromItem, type DeliveryAttempt } from '../entities/delivery-attempt';
import { bool, optStr, str } from './codec';
import { COPY_OF, putGuarded } from './copies';
import { keys, TABLE_DEF } from './table';

/** One delivery attempt, as GET /api/webhooks/{id} lists it. */
export type Attempt = DeliveryRecord;

/** Attempts are kept for 30 days. */
export const ATTEMPT_TTL_S = 30 * 86_400;

const ENTITY = 'webhook_attempt';

/** The attempt item's codec: the declaration's (lib/entities/delivery-attempt.ts). */
export { attemptFromItem };
// The domain shape and the declaration's are one: a field on one side only fails tsc here.
true satisfies Same<DeliveryAttempt, Attempt>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The newest attempts first. */
export async function lastAttempts(tenantId: string, webhookId: string, limit: number): Promise<Attempt[]> {
  const { Items = [] } = await ddb.send(
    new QueryCommand({ ...prefixQuery(keys.webhookPartition(tenantId), keys.attemptPrefix(webhookId)), Limit: limit }),
  );
  return Items.map(attemptFromItem);
}

/** Items one delivery-log request may read before it answers with what it has and a cursor. */
const MAX_LOG_READ = 500;

/** The page key of an endpoint's delivery log (its Query runs on the table itself). */
export const attemptPageKey = (tenantId: string, webhookId: string) => ({
  attrs: [TABLE_DEF.partitionKey, TABLE_DEF.sortKey] as const,
  partitions: { [TABLE_DEF.partitionKey]: keys.webhookPartition(tenantId) },
  sortKey: new RegExp(`^${keys.attemptPrefix(webhookId)}[0-9a-f-]{36}$`),
});

/**
 * One page of the delivery log, newest first, optionally filtered, from `startKey` (a page key
 * `next` gave). Filters are applied by DynamoDB after the read, so a page reads at most
 * MAX_LOG_READ attempts and may come back short with a `next` key to go on from.
 */
export async function attemptPage(
  tenantId: string,
  webhookId: string,
  opts: { startKey?: Record<string, string>; limit: number; success?: boolean; eventType?: string },
): Promise<{ items: Attempt[]; next?: Record<string, string> }> {
  const filters: string[] = [];
  const values: Record<string, unknown> = {};
  if (opts.success !== undefined) {
    filters.push('success = :success');
    values[':success'] = opts.success;
  }
  if (opts.eventType !== undefined) {
    filters.push('event_type = :et');
    values[':et'] = opts.eventType;
  }
  const base = prefixQuery(keys.webhookPartition(tenantId), keys.attemptPrefix(webhookId));
  const input = {
    ...base,
    ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ...values },
    ...(filters.length && { FilterExpression: filters.join(' AND ') }),
  };
  const keyOf = (id: string) => keys.attempt(tenantId, webhookId, id);
  const items: Attempt[] = [];
  let read = 0;
  let last: Record<string, unknown> | undefined;
  for await (const page of queryPages(input, {
    startKey: opts.startKey,
    // Unfiltered, one read of exactly `limit + 1` tells whether more follow.
    limit: () => (filters.length ? Math.min(100, MAX_LOG_READ - read) : opts.limit - items.length + 1),
  })) {
    read += page.ScannedCount ?? 0;
    for (const i of page.Items ?? []) {
      if (items.length === opts.limit) return { items, next: keyOf(items.at(-1)!.id) };
      items.push(attemptFromItem(i));
    }
    last = page.LastEvaluatedKey;
    if (items.length >= opts.limit || read >= MAX_LOG_READ) break;
  }
  if (!last) return { items };
  // Stopped with a page full or the read budget spent: go on after the last attempt read.
  return { items, next: items.length === opts.limit ? keyOf(items.at(-1)!.id) : { PK: String(last.PK), SK: String(last.SK) } };
}

/** The smallest UUIDv7-shaped string at `ms`: attempt ids of that millisecond or later sort after it. */
const idBound = (ms: number) => {
  const h = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-0000-0000-000000000000`;
};

export interface AttemptOutcome {
  event_id: string;
  event_type: string;
  success: boolean;
  next_attempt_at: string | null;
  dead_lettered: boolean;
}

/** Outcomes of the attempts recorded between two times, oldest first (replay reads these). */
export async function attemptOutcomes(tenantId: string, webhookId: string, fromMs: number, toMs: number): Promise<AttemptOutcome[]> {
  const prefix = keys.attemptPrefix(webhookId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':pk': keys.webhookPartition(tenantId), ':lo': prefix + idBound(fromMs), ':hi': prefix + idBound(toMs) },
    ProjectionExpression: 'event_id, event_type, success, next_attempt_at, dead_lettered',
  });
  return items.map((i) => ({
    event_id: str(i, 'event_id', ENTITY),
    event_type: str(i, 'event_type', ENTITY),
    success: bool(i, 'success', ENTITY),
    next_attempt_at: optStr(i, 'next_attempt_at', ENTITY) ?? null,
    dead_lettered: bool(i, 'dead_lettered', ENTITY, false),
  }));
}

/**
 * The item of one attempt (putAttempt writes it; a delivery batch writes many in one call).
 * `series` names a resend or replay (a new attempt series).
 */
export function attemptItem(
  tenantId: string,
  webhookId: string,
  a: Omit<Attempt, 'id'>,
  extra: { series?: string; candidateId?: string } = {},
) {
  const attempt = { id: newId(), ...a };
  return {
    ...keys.attempt(tenantId, webhookId, attempt.id),
    // The receiver's answer to a candidate's event may echo its data: a copy, written with its
    // ledger entry unless the candidate was erased meanwhile (lib/store/copies.ts).
    ...(extra.candidateId && a.response_body ? { [COPY_OF]: extra.candidateId } : {}),
    type: 'webhook_attempt',
    ...attempt,
    ...(extra.series && { series: extra.series }),
    [TABLE_DEF.ttlAttribute]: Math.floor(Date.parse(a.created_at) / 1000) + ATTEMPT_TTL_S,
  };
}

/**
 * Record an attempt. `series` names a resend or replay (a new attempt series). An answer to an
 * event of a candidate erased meanwhile is not recorded (the attempt is). Throws when it could
 * not be written.
 */
export async function putAttempt(
  tenantId: string,
  webhookId: string,
  a: Omit<Attempt, 'id'>,
  extra: { series?: string; candidateId?: string } = {},
): Promise<Attempt> {
  const Item = attemptItem(tenantId, webhookId, a, extra);
  if (Item[COPY_OF] === undefined) await ddb.send(new PutCommand({ TableName: tableName(), Item }));
  else if ((await putGuarded([Item])).unwritten.length) throw new Error('delivery attempt not recorded');
  return { id: Item.id, ...a };
}
