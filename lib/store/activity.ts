/**
 * The activity feed's items, in the person's partition: `ACT#<at>#<id>`, so the partition's
 * `ACT#` range read backwards is the feed newest first (one Query a page). An item holds its
 * kind, time, actor, the candidate it is about and its payload (ids, stage names, field names:
 * never a personal value); a note's item also holds the note's visibility and author, for the
 * sight filter. Written by the table maintenance consumer from audit intents (lib/domain/activity.ts),
 * never on a request path.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ActivityPlan } from '../domain/activity-rules';
import type { Item } from '../item';
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

/**
 * Put a feed item while its person exists: a person erased meanwhile (their partition deleted)
 * gets no item back, and an item already there (a record expanded twice) is left as it is.
 * Resolves with whether it was new.
 */
export async function putActivity(tenantId: string, personId: string, plan: ActivityPlan): Promise<boolean> {
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          { ConditionCheck: { TableName: tableName, Key: keys.person(tenantId, personId), ConditionExpression: 'attribute_exists(PK)' } },
          { Put: { TableName: tableName, Item: activityItem(tenantId, personId, plan), ConditionExpression: 'attribute_not_exists(PK)' } },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed'))
      return false;
    throw err;
  }
}

/** The candidate item a change names (its person, its rejection), or undefined. */
export async function candidateOf(tenantId: string, candidateId: string): Promise<Item | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.candidate(tenantId, candidateId),
      ProjectionExpression: 'person_id, rejection',
    }),
  );
  return Item;
}
