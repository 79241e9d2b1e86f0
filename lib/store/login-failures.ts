/**
 * Failed logins per account *and client address*. Every login attempt is counted before its
 * password is checked, in one conditional update, so concurrent guesses cannot slip past the
 * limit: after MAX_FAILURES attempts from one address without a success, each within LOCK_MS of
 * the previous one, that account is locked for that address until LOCK_MS after the last
 * failure, whatever password is tried. Other addresses are unaffected, so knowing someone's
 * email is not a way to lock them out (OWASP: limit by account and source together). A success
 * from an address clears its count; an admin can clear every count of an account. Keyed by
 * digests of the email and the address, so unknown emails are throttled exactly alike and no
 * address is stored in the clear.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { ddb, queryAll, tableName } from './client';
import { str } from './codec';
import { keys, TABLE_DEF } from './table';
import { unlessConditionFails } from './tx';

export const MAX_FAILURES = 5;
export const LOCK_MS = 15 * 60_000;

const digest = (value: string) => createHash('sha256').update(value).digest('hex');
const key = (email: string, address: string) => keys.loginFailures(digest(email), digest(address));

const tryUpdate = async (cmd: UpdateCommand) => (await unlessConditionFails(ddb.send(cmd))) !== undefined;

/**
 * Count an attempt. `lockedForMs`: how long the account stays locked for this address (0: go
 * ahead and verify); `lastChance`: this attempt is the last one allowed, so if it fails the
 * account is locked for this address from now on (the caller logs that lockout).
 */
export async function reserveAttempt(email: string, address: string, now: number): Promise<{ lockedForMs: number; lastChance: boolean }> {
  const values = {
    ':at': new Date(now).toISOString(),
    ':window': new Date(now - LOCK_MS).toISOString(),
    ':ttl': Math.ceil((now + LOCK_MS) / 1000) + 3600,
    ':one': 1,
  };
  const names = { '#ttl': TABLE_DEF.ttlAttribute };
  const Key = key(email, address);
  // Within the window and under the limit: one more.
  const counted = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: 'SET failures = if_not_exists(failures, :zero) + :one, last_failure_at = :at, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(failures) OR (failures < :max AND last_failure_at > :window)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':zero': 0, ':max': MAX_FAILURES },
        ReturnValues: 'UPDATED_NEW',
      }),
    ),
  );
  if (counted) return { lockedForMs: 0, lastChance: counted.Attributes?.failures === MAX_FAILURES };
  // The last failure is older than the window: start a new count.
  if (
    await tryUpdate(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: 'SET failures = :one, last_failure_at = :at, #ttl = :ttl',
        ConditionExpression: 'last_failure_at <= :window',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    )
  ) {
    return { lockedForMs: 0, lastChance: false }; // a fresh count: 1 of MAX_FAILURES
  }
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
  return {
    lockedForMs: Item ? Math.max(1000, Date.parse(str(Item, 'last_failure_at', 'login_failure')) + LOCK_MS - now) : 0,
    lastChance: false,
  };
}

/** A success from this address: its count starts again. */
export async function clearFailures(email: string, address: string): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName(), Key: key(email, address) }));
}

/** An admin's unlock: every address's count for the account. Returns how many were locked. */
export async function clearAllFailures(email: string, now = Date.now()): Promise<number> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.loginFailPartition(digest(email)) },
    ConsistentRead: true,
  });
  await Promise.all(items.map((i) => ddb.send(new DeleteCommand({ TableName: tableName(), Key: { PK: i.PK, SK: i.SK } }))));
  const window = new Date(now - LOCK_MS).toISOString();
  return items.filter((i) => Number(i.failures) >= MAX_FAILURES && String(i.last_failure_at) > window).length;
}
