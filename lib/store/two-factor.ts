/**
 * Two-factor sign-in's state, attributes of the user item: the TOTP secret (pending until a code
 * confirms it), the last time step a code was accepted at, and the digests of the unused recovery
 * codes (a string set, so spending one is a single conditional DELETE). The secret never leaves
 * this item: no codec but this module's reads it, no answer carries it after enrolment, no log
 * line names it, and removing the user deletes it with the item. The workspace policy is an
 * attribute of the tenant item.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TWO_FACTOR_POLICIES, type TwoFactorPolicy } from '../model';
import { auditPuts, type AuditEntry } from './audit';
import { ddb, tableName } from './client';
import { keys } from './table';
import { cancellationReasons, unlessConditionFails } from './tx';

export interface TwoFactorState {
  /** The confirmed secret; absent: two-factor is off. */
  secret?: string;
  /** A secret shown at enrolment and not yet confirmed by a code. */
  pending_secret?: string;
  /** The last time step a code was accepted at: a code of that step or before is refused. */
  last_step?: number;
  enabled_at?: string;
  recovery_left: number;
}

/** The user's two-factor attributes, read strongly (a code just spent must show as spent). */
export async function getTwoFactor(tenantId: string, userId: string): Promise<TwoFactorState | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.user(tenantId, userId),
      ConsistentRead: true,
      ProjectionExpression: 'PK, totp_secret, totp_pending, totp_last_step, two_factor_enabled_at, recovery_codes',
    }),
  );
  if (!Item) return undefined;
  const codes = Item.recovery_codes as Set<string> | undefined;
  return {
    ...(typeof Item.totp_secret === 'string' && { secret: Item.totp_secret }),
    ...(typeof Item.totp_pending === 'string' && { pending_secret: Item.totp_pending }),
    ...(typeof Item.totp_last_step === 'number' && { last_step: Item.totp_last_step }),
    ...(typeof Item.two_factor_enabled_at === 'string' && { enabled_at: Item.two_factor_enabled_at }),
    recovery_left: codes?.size ?? 0,
  };
}

/** Keep a new secret as pending; refused (false) when two-factor is already on or the user is gone. */
export async function savePendingSecret(tenantId: string, userId: string, secret: string): Promise<boolean> {
  const done = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(tenantId, userId),
        UpdateExpression: 'SET totp_pending = :s',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(totp_secret)',
        ExpressionAttributeValues: { ':s': secret },
      }),
    ),
  );
  return done !== undefined;
}

/**
 * The pending secret becomes the secret, with the step its first code matched and the recovery
 * codes' digests, in one transaction with the audit record. Refused (false) when the pending
 * secret changed meanwhile (another enrolment started) or two-factor is already on.
 */
export async function confirmSecret(
  tenantId: string,
  userId: string,
  confirm: { secret: string; step: number; recoveryDigests: string[]; at: string },
  audit: AuditEntry,
): Promise<boolean> {
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(tenantId, userId),
              UpdateExpression:
                'SET totp_secret = :s, totp_last_step = :step, recovery_codes = :codes, two_factor_enabled_at = :at REMOVE totp_pending',
              ConditionExpression: 'totp_pending = :s AND attribute_not_exists(totp_secret)',
              ExpressionAttributeValues: {
                ':s': confirm.secret,
                ':step': confirm.step,
                ':codes': new Set(confirm.recoveryDigests),
                ':at': confirm.at,
              },
            },
          },
          ...auditPuts(tenantId, audit),
        ],
      }),
    );
    return true;
  } catch (err) {
    if (cancellationReasons(err)?.[0]?.Code === 'ConditionalCheckFailed') return false;
    throw err;
  }
}

/**
 * Accept a code of time step `step`: only if no code of that step or a later one was accepted
 * before, so a code observed in use, or two requests racing with one code, succeed at most once.
 */
export async function spendStep(tenantId: string, userId: string, step: number): Promise<boolean> {
  const done = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(tenantId, userId),
        UpdateExpression: 'SET totp_last_step = :step',
        ConditionExpression: 'attribute_exists(totp_secret) AND (attribute_not_exists(totp_last_step) OR totp_last_step < :step)',
        ExpressionAttributeValues: { ':step': step },
      }),
    ),
  );
  return done !== undefined;
}

/** Spend a recovery code by its digest: true once, false ever after (or when it never was one). */
export async function spendRecoveryCode(tenantId: string, userId: string, digest: string): Promise<boolean> {
  const done = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(tenantId, userId),
        UpdateExpression: 'DELETE recovery_codes :one',
        ConditionExpression: 'attribute_exists(totp_secret) AND contains(recovery_codes, :d)',
        ExpressionAttributeValues: { ':one': new Set([digest]), ':d': digest },
      }),
    ),
  );
  return done !== undefined;
}

/** Turn two-factor off (the user's own choice, or an admin's reset), with its audit record. False: no such user. */
export async function clearTwoFactor(tenantId: string, userId: string, audit: AuditEntry): Promise<boolean> {
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(tenantId, userId),
              UpdateExpression: 'REMOVE totp_secret, totp_pending, totp_last_step, recovery_codes, two_factor_enabled_at',
              ConditionExpression: 'attribute_exists(PK)',
            },
          },
          ...auditPuts(tenantId, audit),
        ],
      }),
    );
    return true;
  } catch (err) {
    if (cancellationReasons(err)?.[0]?.Code === 'ConditionalCheckFailed') return false;
    throw err;
  }
}

/** The workspace policy, read strongly: a sign-in right after a change obeys it. */
export async function getTwoFactorPolicy(tenantId: string): Promise<TwoFactorPolicy> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.tenant(tenantId), ConsistentRead: true, ProjectionExpression: 'two_factor_policy' }),
  );
  const saved = Item?.two_factor_policy;
  return (TWO_FACTOR_POLICIES as readonly unknown[]).includes(saved) ? (saved as TwoFactorPolicy) : 'off';
}

export async function setTwoFactorPolicy(tenantId: string, policy: TwoFactorPolicy, audit: AuditEntry): Promise<void> {
  await ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.tenant(tenantId),
            UpdateExpression: 'SET two_factor_policy = :p',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':p': policy },
          },
        },
        ...auditPuts(tenantId, audit),
      ],
    }),
  );
}
