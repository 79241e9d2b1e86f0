/** Workspace users. The email lookup item makes emails unique across the service. */
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../errors';
import { newId, nowIso } from '../ids';
import { ddb, tableName } from './client';
import { keys } from './table';
import { cancellationReasons } from './tx';

export type { Role } from '../schemas';
import type { Role } from '../schemas';

export interface User {
  id: string;
  tenant_id: string;
  email: string;
  role: Role;
  created_at: string;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function createUser(
  tenantId: string,
  email: string,
  passwordHash: string,
  role: Role,
  id = newId(),
): Promise<User> {
  const user: User = { id, tenant_id: tenantId, email: normalizeEmail(email), role, created_at: nowIso() };
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: { ...keys.email(user.email), type: 'email', tenant_id: tenantId, user_id: user.id },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: { ...keys.user(tenantId, user.id), type: 'user', ...user, password_hash: passwordHash },
            },
          },
          // The tenant must exist.
          { ConditionCheck: { TableName: tableName, Key: keys.tenant(tenantId), ConditionExpression: 'attribute_exists(PK)' } },
        ],
      }),
    );
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (reasons?.[0]?.Code === 'ConditionalCheckFailed') throw new ConflictError(`a user with email ${user.email} already exists`);
    throw err;
  }
  return user;
}

/** The user and password hash behind an email, or undefined. */
export async function findUserByEmail(email: string): Promise<(User & { password_hash: string }) | undefined> {
  const { Item: pointer } = await ddb.send(
    new GetCommand({ TableName: tableName, Key: keys.email(normalizeEmail(email)), ConsistentRead: true }),
  );
  if (!pointer) return undefined;
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName, Key: keys.user(pointer.tenant_id as string, pointer.user_id as string), ConsistentRead: true }),
  );
  return Item ? (toUser(Item) as User & { password_hash: string }) : undefined;
}

/** Replace a user's password hash (admin tooling). */
export async function setPassword(email: string, passwordHash: string): Promise<void> {
  const user = await findUserByEmail(email);
  if (!user) throw new NotFoundError(`user ${email}`);
  await ddb.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.user(user.tenant_id, user.id),
      UpdateExpression: 'SET password_hash = :h',
      ExpressionAttributeValues: { ':h': passwordHash },
    }),
  );
}

const toUser = (item: Record<string, unknown>) => ({
  id: item.id as string,
  tenant_id: item.tenant_id as string,
  email: item.email as string,
  role: item.role as Role,
  created_at: item.created_at as string,
  password_hash: item.password_hash as string,
});
