/**
 * The activity feed's items, in the person's partition: `ACT#<at>#<id>`, so the partition's
 * `ACT#` range read backwards is the feed newest first (one Query a page). An item holds its
 * kind, time, actor, the candidate it is about and its payload (ids, stage names, field names:
 * never a personal value); a note's item also holds the note's visibility and author, for the
 * sight filter. Written by the table maintenance consumer from audit intents (lib/domain/activity.ts),
 * never on a request path.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ActivityPlan } from '../domain/activity-rules';
import type { Item } from '../item';
import { batchGet } from './batch';
import { ddb, tableName } from './client';
import { keys, type Key, type PageKeyShape } from './table';

export const ACTIVITY_PREFIX = 'ACT#';

export const activityKey = (tenantId: string, personId: string, at: string, id: string): Key => ({
  PK: keys.personPartition(tenantId, personId),
  SK: `${ACTIVITY_PREFIX}${at}#${id}`,
});

/** The page key of a person's feed (lib/domain/cursor.ts). */
export const activityPageKey = (tenantId: string, personId: string): PageKeyShape => ({
  attrs: ['PK', 'SK'],
  partitions: { PK: keys.personPartition(tenantId, personId) },
  sortKey: /^ACT#[0-9T:.Z-]{20,30}#[0-9a-z-]{1,60}$/,
});

/** The item of a planned feed item of `personId`. */
export function activityItem(tenantId: string, personId: string, plan: ActivityPlan): Item {
  return {
    ...activityKey(tenantId, personId, plan.at, plan.id),
    type: 'activity',
    tenant_id: tenantId,
    person_id: personId,
    id: plan.id,
    kind: plan.kind,
    at: plan.at,
    actor: plan.actor,
    ...(plan.candidateId && { candidate_id: plan.candidateId }),
    payload: plan.payload,
    ...(plan.sight && {
      visibility: plan.sight.visibility,
      author_id: plan.sight.author_id,
      ...(plan.sight.via_token_id && { via_token_id: plan.sight.via_token_id }),
    }),
  };
}

/** A feed item's two actions: its person must exist, and its own key be free. */
const activityActions = (tenantId: string, personId: string, plan: ActivityPlan) => [
  { ConditionCheck: { TableName: tableName(), Key: keys.person(tenantId, personId), ConditionExpression: 'attribute_exists(PK)' } },
  { Put: { TableName: tableName(), Item: activityItem(tenantId, personId, plan), ConditionExpression: 'attribute_not_exists(PK)' } },
];

/**
 * Put a feed item while its person exists: a person erased meanwhile (their partition deleted)
 * gets no item back, and an item already there (a record expanded twice) is left as it is.
 * Resolves with whether it was new.
 */
export async function putActivity(tenantId: string, personId: string, plan: ActivityPlan): Promise<boolean> {
  try {
    await ddb.send(new TransactWriteCommand({ TransactItems: activityActions(tenantId, personId, plan) }));
    return true;
  } catch (err) {
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed'))
      return false;
    throw err;
  }
}

export interface ActivityPut {
  personId: string;
  plan: ActivityPlan;
}

/** Feed items per transaction: two actions each, within DynamoDB's 100. */
const PUTS_PER_TRANSACTION = 50;

/**
 * putActivity for many items (an import's intent holds a transaction's worth of records), up to
 * PUTS_PER_TRANSACTION per transaction instead of one each: each item still on its own conditions.
 * A transaction names an item once, so a person's second item goes into a later one. A refused
 * item (its person erased, or already written) leaves the transaction, which is written again
 * without it. Resolves with how many were new.
 */
export async function putActivities(tenantId: string, puts: readonly ActivityPut[]): Promise<number> {
  const groups: { puts: ActivityPut[]; people: Set<string> }[] = [];
  for (const put of puts) {
    let group = groups.find((g) => g.puts.length < PUTS_PER_TRANSACTION && !g.people.has(put.personId));
    if (!group) groups.push((group = { puts: [], people: new Set() }));
    group.puts.push(put);
    group.people.add(put.personId);
  }
  let written = 0;
  for (const group of groups) {
    let left = group.puts;
    while (left.length > 1) {
      try {
        await ddb.send(new TransactWriteCommand({ TransactItems: left.flatMap((p) => activityActions(tenantId, p.personId, p.plan)) }));
        written += left.length;
        left = [];
      } catch (err) {
        const reasons = err instanceof TransactionCanceledException ? (err.CancellationReasons ?? []) : [];
        const refused = (n: number) => [reasons[2 * n]?.Code, reasons[2 * n + 1]?.Code].includes('ConditionalCheckFailed');
        const rest = left.filter((_, n) => !refused(n));
        // Anything but a refused item (a conflict with a write in flight) fails the expansion, which the stream retries.
        if (rest.length === left.length) throw err;
        left = rest;
      }
    }
    if (left.length === 1 && (await putActivity(tenantId, left[0]!.personId, left[0]!.plan))) written++;
  }
  return written;
}

/** The candidate items some changes name (their person, their rejection), by id: one BatchGetItem per 100. */
export async function candidatesOf(tenantId: string, candidateIds: readonly string[]): Promise<Map<string, Item>> {
  const items = await batchGet(
    candidateIds.map((id) => keys.candidate(tenantId, id)),
    { projection: 'SK, person_id, rejection' },
  );
  return new Map(items.map((item) => [String(item.SK).slice(candidatePrefix.length), item]));
}

const candidatePrefix = keys.candidate('', '').SK;
