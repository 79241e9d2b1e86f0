/** API tokens: a global lookup item keyed by the token's digest, and a listing item in the tenant. */
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { generateToken, tokenDigest, tokenHint } from '../auth/token';
import { newId, nowIso } from '../ids';
import {
  DEFAULT_TOKEN_LIFETIME,
  SCOPES,
  LEGACY_MEMBER_ROLE,
  TOKEN_KINDS,
  type CreatedToken,
  type Role,
  type Scope,
  type TokenCreator,
  type TokenKind,
  type TokenListing,
} from '../model';
import { ddb, prefixQuery, queryAll, tableName } from './client';
import { type Item, oneOf, optStr, listOf, str } from './codec';
import { keys } from './table';
import { cancellationReasons, unlessConditionFails } from './tx';
import { auditPuts, type AuditEntry } from './audit';

export interface TokenGrant {
  token_id: string;
  tenant_id: string;
  tenant_slug: string;
  scopes: Scope[];
  /** The token's name, for the actor in history; absent on tokens made before it was kept here. */
  token_name?: string;
  /** The token's API key value in the usage plan (deployed only): the authorizer's usageIdentifierKey. */
  usage_key?: string;
  /** Who made it, for the audit records of what it does; absent on workspace tokens. */
  created_by?: TokenCreator;
  /** Absent on tokens made before kinds: those with a creator are personal, the others workspace tokens. */
  kind: TokenKind;
  /** When the token stops working; absent on tokens made before every token had a lifetime. */
  expires_at?: string;
  /** On the lookup item of a rotated-out secret: when that secret stops working. */
  secret_ends_at?: string;
}

/** What a token is made with beyond its name and scopes. */
export interface TokenTerms {
  kind: TokenKind;
  expiresAt: string;
}

export type { CreatedToken, TokenCreator, TokenListing };

/** The user making a token, and the role their scopes were checked against. */
export interface TokenMaker extends TokenCreator {
  role: Role;
}

/** Thrown by createToken when the maker is gone or no longer has the role the scopes were checked against. */
export class MakerChangedError extends Error {
  /** The usage-plan API key made for the token that was not made, to delete. */
  constructor(readonly usageKeyId: string | undefined) {
    super('token maker changed');
  }
}

const creatorAttributes = (c: TokenCreator | undefined) => c && { created_by_id: c.id, created_by_email: c.email };

/**
 * The token's expiry is `token_expires_at`: the table's TTL attribute is `expires_at`, and a
 * token's items must outlive its expiry, so that it answers "expired", not "unknown".
 */
const termsAttributes = (t: TokenTerms | undefined) => t && { kind: t.kind, token_expires_at: t.expiresAt };

/** A token made outside the console (admin CLI, seeds) lives the default lifetime. */
const defaultExpiry = () => new Date(Date.now() + DEFAULT_TOKEN_LIFETIME.default_days * 86_400_000).toISOString();

export const kindOf = (item: Item, entity: string, creator: TokenCreator | undefined): TokenKind =>
  item.kind === undefined ? (creator ? 'personal' : 'workspace') : oneOf(item, 'kind', TOKEN_KINDS, entity);

export function creatorOf(item: Item, entity: string): TokenCreator | undefined {
  const id = optStr(item, 'created_by_id', entity);
  return id === undefined ? undefined : { id, email: str(item, 'created_by_email', entity) };
}

export async function createToken(
  tenant: { id: string; slug: string },
  name: string,
  scopes: Scope[],
  /** Makes the token's rate-limit API key (lib/auth/usage-keys.ts) once its id is known. */
  usageKeyFor: (tokenId: string) => Promise<{ id: string; value: string } | undefined> = async () => undefined,
  audit?: (tokenId: string) => AuditEntry,
  /**
   * The user making it (absent: a workspace token, made by the admin CLI or a seed). The write is
   * conditioned on their user item still holding `role`, so a token cannot be made with a role
   * lowered or a membership removed in the meantime (those sweep the user's tokens after they commit).
   */
  maker?: TokenMaker,
  /** Kind and expiry (absent: the admin CLI's and seeds' workspace tokens, which get the default lifetime). */
  terms?: TokenTerms,
): Promise<CreatedToken> {
  const token = generateToken();
  const digest = tokenDigest(token);
  const id = newId();
  const usageKey = await usageKeyFor(id);
  const created_at = nowIso();
  const creator = maker && { id: maker.id, email: maker.email };
  const t: TokenTerms = terms ?? { kind: 'workspace', expiresAt: defaultExpiry() };
  const write = new TransactWriteCommand({
    TransactItems: [
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.token(digest),
            type: 'token_lookup',
            token_id: id,
            tenant_id: tenant.id,
            tenant_slug: tenant.slug,
            token_name: name,
            scopes,
            ...(usageKey && { usage_key: usageKey.value }),
            ...creatorAttributes(creator),
            ...termsAttributes(t),
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.tenantToken(tenant.id, id),
            type: 'token',
            id,
            name,
            scopes,
            hint: tokenHint(token),
            digest,
            created_at,
            ...(usageKey && { usage_key_id: usageKey.id }),
            ...creatorAttributes(creator),
            ...termsAttributes(t),
          },
        },
      },
      ...(audit ? auditPuts(tenant.id, audit(id)) : []),
      ...(maker
        ? [
            {
              ConditionCheck: {
                TableName: tableName(),
                Key: keys.user(tenant.id, maker.id),
                // A deactivated user's sessions are ended, but one in flight must not mint either.
                // A recruiter's item may still hold the `member` it was stored with (lib/model.ts).
                ConditionExpression: '#role IN (:role, :stored) AND attribute_not_exists(deactivated_at)',
                ExpressionAttributeNames: { '#role': 'role' },
                ExpressionAttributeValues: { ':role': maker.role, ':stored': maker.role === 'recruiter' ? LEGACY_MEMBER_ROLE : maker.role },
              },
            },
          ]
        : []),
    ],
  });
  try {
    await ddb.send(write);
  } catch (err) {
    if (maker && cancellationReasons(err)?.at(-1)?.Code === 'ConditionalCheckFailed') throw new MakerChangedError(usageKey?.id);
    throw err;
  }
  return { id, name, scopes, token, created_at, kind: t.kind, expires_at: t.expiresAt };
}

/** The grant behind a token digest, or undefined when the token is unknown or revoked. */
export async function findTokenGrant(digest: string): Promise<TokenGrant | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.token(digest) }));
  return Item && tokenGrantFromItem(Item);
}

/** The lookup item's codec. */
function tokenGrantFromItem(item: Item): TokenGrant {
  const usage_key = optStr(item, 'usage_key', 'token_lookup');
  const token_name = optStr(item, 'token_name', 'token_lookup');
  const created_by = creatorOf(item, 'token_lookup');
  const expires_at = optStr(item, 'token_expires_at', 'token_lookup');
  const secret_ends_at = optStr(item, 'secret_ends_at', 'token_lookup');
  return {
    token_id: str(item, 'token_id', 'token_lookup'),
    tenant_id: str(item, 'tenant_id', 'token_lookup'),
    tenant_slug: str(item, 'tenant_slug', 'token_lookup'),
    scopes: listOf(item, 'scopes', SCOPES, 'token_lookup'),
    ...(usage_key !== undefined && { usage_key }),
    ...(token_name !== undefined && { token_name }),
    ...(created_by && { created_by }),
    kind: kindOf(item, 'token_lookup', created_by),
    ...(expires_at !== undefined && { expires_at }),
    ...(secret_ends_at !== undefined && { secret_ends_at }),
  };
}

/** A tenant's tokens, newest first. The digest stays in the table; it is never listed. */
export async function listTokens(tenantId: string): Promise<TokenListing[]> {
  const items = await queryAll(prefixQuery(keys.tenantPartition(tenantId), keys.tokenPrefix));
  return items.map(tokenFromItem);
}

/** The listing item's codec: everything but the digest and the usage key id. */
function tokenFromItem(item: Item): TokenListing {
  const created_by = creatorOf(item, 'token');
  return {
    id: str(item, 'id', 'token'),
    name: str(item, 'name', 'token'),
    scopes: listOf(item, 'scopes', SCOPES, 'token'),
    hint: str(item, 'hint', 'token'),
    created_at: str(item, 'created_at', 'token'),
    last_used_at: optStr(item, 'last_used_at', 'token') ?? null,
    created_by: created_by ?? null,
    kind: kindOf(item, 'token', created_by),
    expires_at: optStr(item, 'token_expires_at', 'token') ?? null,
  };
}

/**
 * The tokens one user made, with their digests (to reach the lookup items). A Query of the
 * tenant's token items, which a workspace has a handful of, read consistently so that a token
 * made just before a membership change is found by the sweep that follows it.
 */
export async function tokensCreatedBy(
  tenantId: string,
  userId: string,
): Promise<Array<TokenListing & { digest: string; previous_digest?: string }>> {
  const q = prefixQuery(keys.tenantPartition(tenantId), keys.tokenPrefix);
  const items = await queryAll({
    ...q,
    ConsistentRead: true,
    FilterExpression: 'created_by_id = :user',
    ExpressionAttributeValues: { ...q.ExpressionAttributeValues, ':user': userId },
  });
  return items.map((i) => {
    const previous_digest = optStr(i, 'previous_digest', 'token');
    return { ...tokenFromItem(i), digest: str(i, 'digest', 'token'), ...(previous_digest && { previous_digest }) };
  });
}

/**
 * Set a token's scopes on both its items (the lookup the authorizer reads and the listing);
 * false when it was revoked in the meantime. A secret replaced by a rotation and still in its
 * grace stops at once rather than keep the wider scopes.
 */
export async function setTokenScopes(
  tenantId: string,
  token: { id: string; digest: string; previous_digest?: string },
  scopes: Scope[],
  audit?: AuditEntry,
): Promise<boolean> {
  const set = (Key: Record<string, string>) => ({
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: 'SET scopes = :scopes',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':scopes': scopes },
    },
  });
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          set(keys.token(token.digest)),
          set(keys.tenantToken(tenantId, token.id)),
          ...(token.previous_digest && token.previous_digest !== token.digest
            ? [{ Delete: { TableName: tableName(), Key: keys.token(token.previous_digest) } }]
            : []),
          ...(audit ? auditPuts(tenantId, audit) : []),
        ],
      }),
    );
    return true;
  } catch (err) {
    if (
      cancellationReasons(err)
        ?.slice(0, 2)
        .some((r) => r.Code === 'ConditionalCheckFailed')
    )
      return false;
    throw err;
  }
}

/**
 * Delete both items of a token; false when the tenant has no such token, else what is left to
 * delete elsewhere (its usage-plan API key id, when it has one). `allow` sees who made the token
 * before anything is deleted, and throws to refuse.
 */
export async function revokeToken(
  tenantId: string,
  tokenId: string,
  audit?: AuditEntry,
  allow?: (createdBy: TokenCreator | undefined, kind: TokenKind) => void,
): Promise<false | { usage_key_id?: string }> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.tenantToken(tenantId, tokenId), ConsistentRead: true }),
  );
  if (!Item) return false;
  const createdBy = creatorOf(Item, 'token');
  allow?.(createdBy, kindOf(Item, 'token', createdBy));
  const digest = str(Item, 'digest', 'token');
  // A secret replaced by a rotation and still in its grace (lib/store/token-rotation.ts) goes too.
  const previous = optStr(Item, 'previous_digest', 'token');
  const usage_key_id = optStr(Item, 'usage_key_id', 'token');
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName(), Key: keys.token(digest) } },
          // Conditioned, so that of two revocations racing only one happens and is audited.
          { Delete: { TableName: tableName(), Key: keys.tenantToken(tenantId, tokenId), ConditionExpression: 'attribute_exists(PK)' } },
          ...(previous && previous !== digest ? [{ Delete: { TableName: tableName(), Key: keys.token(previous) } }] : []),
          ...(audit ? auditPuts(tenantId, audit) : []),
        ],
      }),
    );
  } catch (err) {
    if (cancellationReasons(err)?.[1]?.Code === 'ConditionalCheckFailed') return false;
    throw err;
  }
  return { usage_key_id };
}

/** Record use; never recreates a token revoked in the meantime. */
export async function touchToken(tenantId: string, tokenId: string, at: string): Promise<void> {
  await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.tenantToken(tenantId, tokenId),
        UpdateExpression: 'SET last_used_at = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );
}
