/**
 * Workspace users. The email lookup item makes emails unique across the service. Changes that
 * could leave a workspace without an admin (a role change, a removal) are conditioned on the
 * tenant item's `members_version`, read together with the users it was decided on, so two admins
 * demoting each other at once cannot both succeed.
 */
import { auditPuts, type AuditEntry } from './audit';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../errors';
import { newId, nowIso } from '../ids';
import { ddb, prefixQuery, queryAll, tableName } from './client';
import { type Item, roleOf, str } from './codec';
import { keys } from './table';
import { cancellationReasons, unlessConditionFails, writeParts, type TxOutcome } from './tx';

export type { Role } from '../model';
import type { Role } from '../model';

export interface User {
  id: string;
  tenant_id: string;
  email: string;
  role: Role;
  created_at: string;
  /** Set when someone else chose the password (an admin adding the user or resetting it). */
  must_change_password: boolean;
  /** When an admin deactivated the user: they stay a member for the record but cannot sign in. */
  deactivated_at?: string;
  /** A confirmed TOTP secret is on the item (lib/store/two-factor.ts, which alone reads the secret). */
  two_factor_enabled: boolean;
  /** The IANA zone the user set for themselves (lib/domain/account.ts); absent, none was set. */
  time_zone?: string;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function createUser(
  tenantId: string,
  email: string,
  passwordHash: string,
  role: Role,
  opts: { id?: string; mustChangePassword?: boolean; audit?: (userId: string) => AuditEntry } = {},
): Promise<User> {
  const user: User = {
    id: opts.id ?? newId(),
    tenant_id: tenantId,
    email: normalizeEmail(email),
    role,
    created_at: nowIso(),
    must_change_password: opts.mustChangePassword ?? false,
    two_factor_enabled: false,
  };
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.email(user.email), type: 'email', tenant_id: tenantId, user_id: user.id },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.user(tenantId, user.id), type: 'user', ...withoutDerived(user), password_hash: passwordHash },
            },
          },
          // The tenant must exist.
          { ConditionCheck: { TableName: tableName(), Key: keys.tenant(tenantId), ConditionExpression: 'attribute_exists(PK)' } },
          ...(opts.audit ? auditPuts(tenantId, opts.audit(user.id)) : []),
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
    new GetCommand({ TableName: tableName(), Key: keys.email(normalizeEmail(email)), ConsistentRead: true }),
  );
  if (!pointer) return undefined;
  return getUser(str(pointer, 'tenant_id', 'email'), str(pointer, 'user_id', 'email'));
}

/** One user of a tenant, with the password hash, or undefined. */
export async function getUser(tenantId: string, userId: string): Promise<(User & { password_hash: string }) | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.user(tenantId, userId), ConsistentRead: true }));
  return Item ? { ...userFromItem(Item), password_hash: str(Item, 'password_hash', 'user') } : undefined;
}

/**
 * The role a user acts with now, for the token authorizer: undefined when they are gone or
 * deactivated (their personal tokens are being revoked; none acts for them meanwhile). A
 * projection of the one item, never the password hash.
 */
export async function currentRoleOf(tenantId: string, userId: string): Promise<Role | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.user(tenantId, userId),
      ProjectionExpression: '#role, deactivated_at',
      ExpressionAttributeNames: { '#role': 'role' },
    }),
  );
  return Item && typeof Item.deactivated_at !== 'string' ? roleOf(Item, 'user') : undefined;
}

/** Every user of a tenant. A workspace has a handful, so one paginated Query is the whole list. */
export async function listUsers(tenantId: string): Promise<User[]> {
  const items = await queryAll({ ...prefixQuery(keys.tenantPartition(tenantId), keys.userPrefix), ConsistentRead: true });
  return items.map(userFromItem);
}

/**
 * The users and the membership version they were read at, for a guarded change. The version is
 * read first: a change committed between the two reads then shows in the users but not in the
 * version, and a write conditioned on that version fails and reads again. (Read in parallel, the
 * users could predate a change whose new version was read: two admins could demote each other.)
 */
export async function readMembership(tenantId: string): Promise<{ users: User[]; version: number }> {
  const tenant = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.tenant(tenantId), ConsistentRead: true, ProjectionExpression: 'members_version' }),
  );
  return { users: await listUsers(tenantId), version: Number(tenant.Item?.members_version ?? 0) };
}

/** The tenant's membership version moves from `version` to the next, or the transaction fails. */
const bumpVersion = (tenantId: string, version: number) => ({
  Update: {
    TableName: tableName(),
    Key: keys.tenant(tenantId),
    UpdateExpression: 'SET members_version = :next',
    ConditionExpression: 'attribute_exists(PK) AND (members_version = :v OR (attribute_not_exists(members_version) AND :v = :zero))',
    ExpressionAttributeValues: { ':v': version, ':next': version + 1, ':zero': 0 },
  },
});

export type MembershipParts = 'user' | 'membership' | 'email' | 'audit';

/**
 * A membership write: the user's change (refused when the user is gone) and the tenant's
 * membership version moving from the one read (refused when another change came first), with
 * its audit record, in one transaction (lib/domain/members.ts decides whether it may be made).
 */
export function setRole(
  tenantId: string,
  userId: string,
  role: Role,
  version: number,
  audit?: AuditEntry,
): Promise<TxOutcome<MembershipParts>> {
  return writeParts<MembershipParts>({
    user: {
      Update: {
        TableName: tableName(),
        Key: keys.user(tenantId, userId),
        UpdateExpression: 'SET #role = :role',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':role': role },
      },
    },
    membership: bumpVersion(tenantId, version),
    email: undefined,
    audit: audit && auditPuts(tenantId, audit),
  });
}

/** Removes the user and its email lookup, so the email can sign up again elsewhere. */
export function deleteUser(
  tenantId: string,
  user: Pick<User, 'id' | 'email'>,
  version: number,
  audit?: AuditEntry,
): Promise<TxOutcome<MembershipParts>> {
  return writeParts<MembershipParts>({
    user: { Delete: { TableName: tableName(), Key: keys.user(tenantId, user.id), ConditionExpression: 'attribute_exists(PK)' } },
    membership: bumpVersion(tenantId, version),
    email: { Delete: { TableName: tableName(), Key: keys.email(user.email) } },
    audit: audit && auditPuts(tenantId, audit),
  });
}

/** Replace a user's password hash; `mustChange` when someone other than the user chose it. */
export async function setUserPassword(
  tenantId: string,
  userId: string,
  passwordHash: string,
  mustChange: boolean,
  audit?: AuditEntry,
): Promise<boolean> {
  const set = {
    TableName: tableName(),
    Key: keys.user(tenantId, userId),
    UpdateExpression: 'SET password_hash = :h, must_change_password = :m',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':h': passwordHash, ':m': mustChange },
  };
  if (!audit) return (await unlessConditionFails(ddb.send(new UpdateCommand(set)))) !== undefined;
  try {
    await ddb.send(new TransactWriteCommand({ TransactItems: [{ Update: set }, ...auditPuts(tenantId, audit)] }));
    return true;
  } catch (err) {
    if (cancellationReasons(err)?.[0]?.Code === 'ConditionalCheckFailed') return false;
    throw err;
  }
}

/** Replace a user's password hash by email (admin tooling and the demo seed). */
export async function setPassword(email: string, passwordHash: string): Promise<void> {
  const user = await findUserByEmail(email);
  if (!user || !(await setUserPassword(user.tenant_id, user.id, passwordHash, false))) throw new NotFoundError(`user ${email}`);
}

/** Set (a zone) or clear (null) a user's own time zone; false when the user is gone. */
export async function setUserTimeZone(tenantId: string, userId: string, zone: string | null): Promise<boolean> {
  const update = {
    TableName: tableName(),
    Key: keys.user(tenantId, userId),
    UpdateExpression: zone === null ? 'REMOVE time_zone' : 'SET time_zone = :z',
    ConditionExpression: 'attribute_exists(PK)',
    ...(zone !== null && { ExpressionAttributeValues: { ':z': zone } }),
  };
  return (await unlessConditionFails(ddb.send(new UpdateCommand(update)))) !== undefined;
}

/** The user item's codec (without the password hash, which only getUser adds). */
const userFromItem = (item: Item): User => ({
  id: str(item, 'id', 'user'),
  tenant_id: str(item, 'tenant_id', 'user'),
  email: str(item, 'email', 'user'),
  role: roleOf(item, 'user'),
  created_at: str(item, 'created_at', 'user'),
  must_change_password: item.must_change_password === true,
  ...(typeof item.deactivated_at === 'string' && { deactivated_at: item.deactivated_at }),
  two_factor_enabled: typeof item.totp_secret === 'string',
  ...(typeof item.time_zone === 'string' && { time_zone: item.time_zone }),
});

/** `two_factor_enabled` is read from the secret's presence, never stored beside it. */
const withoutDerived = ({ two_factor_enabled: _derived, ...stored }: User) => stored;

/**
 * Deactivate a user (`at`, kept for the audit trail; they cannot sign in) or reactivate them
 * (null), at a membership version like every change that must leave an admin behind.
 */
export function setDeactivated(
  tenantId: string,
  userId: string,
  at: string | null,
  version: number,
  audit: AuditEntry,
): Promise<TxOutcome<MembershipParts>> {
  return writeParts<MembershipParts>({
    user: {
      Update: {
        TableName: tableName(),
        Key: keys.user(tenantId, userId),
        UpdateExpression: at === null ? 'REMOVE deactivated_at' : 'SET deactivated_at = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ...(at !== null && { ExpressionAttributeValues: { ':at': at } }),
      },
    },
    membership: bumpVersion(tenantId, version),
    email: undefined,
    audit: auditPuts(tenantId, audit),
  });
}
