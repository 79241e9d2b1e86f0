/**
 * Failed logins per account. Every login attempt is counted *before* its password is checked,
 * in one conditional update, so concurrent guesses cannot slip past the limit: after
 * MAX_FAILURES attempts without a success, each within LOCK_MS of the previous one, the
 * account is locked until LOCK_MS after the last, whatever password is tried. A success clears
 * the count. Keyed by a digest of the email so unknown emails are throttled exactly alike.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { ddb, tableName } from './client';
import { keys, TABLE_DEF } from './table';
import { unlessConditionFails } from './tx';

export const MAX_FAILURES = 5;
export const LOCK_MS = 15 * 60_000;

const key = (email: string) => keys.loginFailures(createHash('sha256').update(email).digest('hex'));

const tryUpdate = async (cmd: UpdateCommand) => (await unlessConditionFails(ddb.send(cmd))) !== undefined;

/** Count an attempt; returns how long the account stays locked (0: go ahead and verify). */
export async function reserveAttempt(email: string, now: number): Promise<number> {
  const values = {
    ':at': new Date(now).toISOString(),
    ':window': new Date(now - LOCK_MS).toISOString(),
    ':ttl': Math.ceil((now + LOCK_MS) / 1000) + 3600,
    ':one': 1,
  };
  const names = { '#ttl': TABLE_DEF.ttlAttribute };
  // Within the window and under the limit: one more.
  if (
    await tryUpdate(
      new UpdateCommand({
        TableName: tableName,
        Key: key(email),
        UpdateExpression: 'SET failures = if_not_exists(failures, :zero) + :one, last_failure_at = :at, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(failures) OR (failures < :max AND last_failure_at > :window)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':zero': 0, ':max': MAX_FAILURES },
      }),
    )
  ) {
    return 0;
  }
  // The last failure is older than the window: start a new count.
  if (
    await tryUpdate(
      new UpdateCommand({
        TableName: tableName,
        Key: key(email),
        UpdateExpression: 'SET failures = :one, last_failure_at = :at, #ttl = :ttl',
        ConditionExpression: 'last_failure_at <= :window',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    )
  ) {
    return 0;
  }
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: key(email), ConsistentRead: true }));
  return Item ? Math.max(1000, Date.parse(Item.last_failure_at as string) + LOCK_MS - now) : 0;
}

export async function clearFailures(email: string): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName, Key: key(email) }));
}
