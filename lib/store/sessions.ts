/** Sessions, keyed by the digest of the cookie value. DynamoDB TTL only tidies up: expiry is checked on every request. */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ABSOLUTE_LIFETIME_MS } from '../auth/session';
import type { Role } from './users';
import { ddb, tableName } from './client';
import { keys, TABLE_DEF } from './table';
import { unlessConditionFails } from './tx';

export interface SessionRecord {
  tenant_id: string;
  tenant_slug: string;
  user_id: string;
  email: string;
  role: Role;
  created_at: string;
  last_seen_at: string;
}

export async function putSession(digest: string, s: SessionRecord): Promise<void> {
  await ddb.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.session(digest),
        type: 'session',
        ...s,
        [TABLE_DEF.ttlAttribute]: Math.ceil((Date.parse(s.created_at) + ABSOLUTE_LIFETIME_MS) / 1000) + 3600,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export async function getSession(digest: string): Promise<SessionRecord | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: keys.session(digest), ConsistentRead: true }));
  return Item as SessionRecord | undefined;
}

/** Slide the idle window. Never recreates a session deleted in the meantime. */
export async function touchSession(digest: string, at: string): Promise<void> {
  await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.session(digest),
        UpdateExpression: 'SET last_seen_at = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );
}

export async function deleteSession(digest: string): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName, Key: keys.session(digest) }));
}
