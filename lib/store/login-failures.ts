/**
 * Failed logins per account. After MAX_FAILURES failures, each within LOCK_MS of the one
 * before, the account is locked until LOCK_MS after the last one, whatever password is tried.
 * Keyed by a digest of the email so unknown emails are throttled exactly like known ones.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { ddb, tableName } from './client';
import { keys, TABLE_DEF } from './table';

export const MAX_FAILURES = 5;
export const LOCK_MS = 15 * 60_000;

const key = (email: string) => keys.loginFailures(createHash('sha256').update(email).digest('hex'));

export interface FailureState {
  /** Recent consecutive failures (0 once the window has passed). */
  failures: number;
  /** How long the account stays locked, 0 when it is not. */
  lockedForMs: number;
}

export async function failureState(email: string, now: number): Promise<FailureState> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: key(email), ConsistentRead: true }));
  const until = Item ? Date.parse(Item.last_failure_at as string) + LOCK_MS : 0;
  if (!Item || until <= now) return { failures: 0, lockedForMs: 0 };
  const failures = Number(Item.failures);
  return { failures, lockedForMs: failures >= MAX_FAILURES ? until - now : 0 };
}

/** Count a failure; `fresh` restarts the count because the previous window has passed. */
export async function recordFailure(email: string, now: number, fresh: boolean): Promise<void> {
  await ddb.send(
    new UpdateCommand({
      TableName: tableName,
      Key: key(email),
      UpdateExpression: `SET failures = ${fresh ? ':one' : 'if_not_exists(failures, :zero) + :one'}, last_failure_at = :at, #ttl = :ttl`,
      ExpressionAttributeNames: { '#ttl': TABLE_DEF.ttlAttribute },
      ExpressionAttributeValues: {
        ...(fresh ? {} : { ':zero': 0 }),
        ':one': 1,
        ':at': new Date(now).toISOString(),
        ':ttl': Math.ceil((now + LOCK_MS) / 1000) + 3600,
      },
    }),
  );
}

export async function clearFailures(email: string): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName, Key: key(email) }));
}
