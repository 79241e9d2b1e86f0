/**
 * Leases: how many of one caller's costly requests may run at once, kept in the table so the cap
 * holds across Lambda instances (each serves one request and knows of no other). A caller has a
 * few slot items; a request takes a free one with a conditional put and deletes it when done. The
 * slot of a request that never got to delete it (a crash, a timeout) frees itself at
 * `held_until`, the end of that request's time. Items carry no personal data and leave by TTL.
 */
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../logger';
import { ddb, tableName } from './client';
import { keys, TABLE_DEF, type Key } from './table';

export { LEASE_ATTRIBUTES } from './table';

export interface Lease {
  key: Key;
  id: string;
}

/**
 * Take one of `holder`'s `slots` for `holdMs`: one PutItem per slot tried, in order, until one is
 * free or expired. Undefined when all are held.
 */
export async function takeLease(tenantId: string, holder: string, slots: number, holdMs: number): Promise<Lease | undefined> {
  const id = randomUUID();
  const now = Date.now();
  const until = now + holdMs;
  for (let slot = 0; slot < slots; slot++) {
    const key = keys.lease(tenantId, holder, slot);
    try {
      await ddb.send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...key, type: 'lease', lease_id: id, held_until: until, [TABLE_DEF.ttlAttribute]: Math.ceil(until / 1000) + 60 },
          ConditionExpression: 'attribute_not_exists(PK) OR held_until < :now',
          ExpressionAttributeValues: { ':now': now },
        }),
      );
      return { key, id };
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }
  return undefined;
}

/**
 * Give the slot back, unless another request took it over after it expired. Best effort: the
 * answer is made already, and a slot left behind frees itself at its `held_until`.
 */
export async function releaseLease(lease: Lease): Promise<void> {
  try {
    await ddb.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: lease.key,
        ConditionExpression: 'lease_id = :id',
        ExpressionAttributeValues: { ':id': lease.id },
      }),
    );
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return;
    logger.warn('lease not released', { error: (err as Error).name });
  }
}
