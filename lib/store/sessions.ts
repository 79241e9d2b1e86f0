/** Sessions, keyed by the digest of the cookie value. DynamoDB TTL only tidies up: expiry is checked on every request. */
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { auditPuts, type AuditEntry } from './audit';
import { ABSOLUTE_LIFETIME_MS } from '../auth/session';
import type { Role } from '../model';
import { ddb, queryAll, tableName } from './client';
import { type Item, roleOf, str } from './codec';
import { keys, TABLE_DEF, userSessionsIndexKey, userSessionsPartition } from './table';
import { cancellationReasons, unlessConditionFails } from './tx';

export interface SessionRecord {
  tenant_id: string;
  tenant_slug: string;
  user_id: string;
  email: string;
  role: Role;
  created_at: string;
  last_seen_at: string;
  /** Signed in with a temporary password: the handler boundary opens only three routes (lib/http.ts). */
  must_change_password?: true;
  /**
   * Half signed in: the password was right and a two-factor step is due (`verify` a code, or
   * `enrol` under a policy that requires it). The session authorizer opens only that step's routes.
   */
  two_factor?: 'verify' | 'enrol';
}

/**
 * Thrown by putSession when the user was removed or deactivated between the password check and
 * the session's write.
 */
export class UserInactiveError extends Error {}

/**
 * `audit` makes the write a transaction, which also checks that the user is still there and not
 * deactivated: a sign-in racing a removal or deactivation cannot leave a session behind it.
 */
export async function putSession(digest: string, s: SessionRecord, audit?: AuditEntry): Promise<void> {
  const put = {
    TableName: tableName(),
    Item: {
      ...keys.session(digest),
      type: 'session',
      ...s,
      ...userSessionsIndexKey(s.tenant_id, s.user_id, s.created_at),
      [TABLE_DEF.ttlAttribute]: Math.ceil((Date.parse(s.created_at) + ABSOLUTE_LIFETIME_MS) / 1000) + 3600,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  };
  if (!audit) {
    await ddb.send(new PutCommand(put));
    return;
  }
  const active = {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.user(s.tenant_id, s.user_id),
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deactivated_at)',
    },
  };
  try {
    await ddb.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, active, ...auditPuts(s.tenant_id, audit)] }));
  } catch (err) {
    if (cancellationReasons(err)?.[1]?.Code === 'ConditionalCheckFailed') throw new UserInactiveError('user removed or deactivated');
    throw err;
  }
}

export async function getSession(digest: string): Promise<SessionRecord | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.session(digest), ConsistentRead: true }));
  return Item && sessionFromItem(Item);
}

/** The session item's codec: the record alone, without its keys and TTL. */
function sessionFromItem(item: Item): SessionRecord {
  return {
    tenant_id: str(item, 'tenant_id', 'session'),
    tenant_slug: str(item, 'tenant_slug', 'session'),
    user_id: str(item, 'user_id', 'session'),
    email: str(item, 'email', 'session'),
    role: roleOf(item, 'session'),
    created_at: str(item, 'created_at', 'session'),
    last_seen_at: str(item, 'last_seen_at', 'session'),
    ...(item.must_change_password === true && { must_change_password: true }),
    ...((item.two_factor === 'verify' || item.two_factor === 'enrol') && { two_factor: item.two_factor }),
  };
}

/** The session's user chose their own password: every route opens to it. */
export async function clearMustChangePassword(digest: string): Promise<void> {
  await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.session(digest),
        UpdateExpression: 'REMOVE must_change_password',
        ConditionExpression: 'attribute_exists(PK)',
      }),
    ),
  );
}

/** Slide the idle window. Never recreates a session deleted in the meantime. */
export async function touchSession(digest: string, at: string): Promise<void> {
  await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.session(digest),
        UpdateExpression: 'SET last_seen_at = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );
}

export async function deleteSession(digest: string, audit?: { tenantId: string; entry: AuditEntry }): Promise<void> {
  const del = { TableName: tableName(), Key: keys.session(digest) };
  if (audit) await ddb.send(new TransactWriteCommand({ TransactItems: [{ Delete: del }, ...auditPuts(audit.tenantId, audit.entry)] }));
  else await ddb.send(new DeleteCommand(del));
}

/** Digests of a user's sessions (GSI2), for ending or updating them all. */
async function sessionKeysOf(tenantId: string, userId: string): Promise<{ PK: string; SK: string }[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: TABLE_DEF.indexes.byRequisitionOrUser.name,
    KeyConditionExpression: `${TABLE_DEF.indexes.byRequisitionOrUser.partitionKey} = :pk`,
    ExpressionAttributeValues: { ':pk': userSessionsPartition(tenantId, userId) },
    ProjectionExpression: 'PK, SK',
  });
  return items.map((i) => ({ PK: str(i, 'PK', 'session'), SK: str(i, 'SK', 'session') }));
}

/** End every session of a user, but `keep` (the caller's own, when it changes its password). */
export async function endSessionsOf(tenantId: string, userId: string, keep?: string): Promise<number> {
  const keepPk = keep === undefined ? undefined : keys.session(keep).PK;
  const ending = (await sessionKeysOf(tenantId, userId)).filter((k) => k.PK !== keepPk);
  await Promise.all(ending.map((Key) => ddb.send(new DeleteCommand({ TableName: tableName(), Key }))));
  return ending.length;
}

/** A role change takes effect on the user's next request, without signing them out. */
export async function setRoleOfSessions(tenantId: string, userId: string, role: Role): Promise<void> {
  const all = await sessionKeysOf(tenantId, userId);
  await Promise.all(
    all.map((Key) =>
      unlessConditionFails(
        ddb.send(
          new UpdateCommand({
            TableName: tableName(),
            Key,
            UpdateExpression: 'SET #role = :role',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: { '#role': 'role' },
            ExpressionAttributeValues: { ':role': role },
          }),
        ),
      ),
    ),
  );
}
