/**
 * Rotating an API token: a new secret (a new lookup item) for the same token, while the old
 * secret's lookup item keeps working until its grace ends. The listing item names the current
 * digest and the previous one, so that revoking or narrowing the token reaches both secrets.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { generateToken, tokenDigest, tokenHint } from '../auth/token';
import { nowIso } from '../ids';
import type { TokenCreator, TokenKind } from '../model';
import { auditPuts, type AuditEntry } from './audit';
import { ddb, tableName } from './client';
import { optStr, str } from './codec';
import { TABLE_DEF, keys } from './table';
import { creatorOf, kindOf } from './tokens';
import { cancellationReasons } from './tx';

/** What the rotation rule sees of the token before anything changes. */
export interface RotationSubject {
  createdBy: TokenCreator | undefined;
  kind: TokenKind;
  expiresAt: string | undefined;
}

export type Rotated = { token: string; hint: string; previous_secret_ends_at: string | null };

/**
 * Give the token a new secret. `decide` sees the token and answers when its current secret stops
 * working (null: at once), or throws to refuse. A secret still in an earlier rotation's grace stops
 * at once: a token has at most two secrets. False when the tenant has no such token; 'raced' when
 * it was revoked or rotated by someone else meanwhile.
 */
export async function rotateTokenSecret(
  tenantId: string,
  tokenId: string,
  decide: (t: RotationSubject) => string | null,
  audit: (endsAt: string | null) => AuditEntry,
): Promise<false | 'raced' | Rotated> {
  const listingKey = keys.tenantToken(tenantId, tokenId);
  const { Item: listing } = await ddb.send(new GetCommand({ TableName: tableName(), Key: listingKey, ConsistentRead: true }));
  if (!listing) return false;
  const digest = str(listing, 'digest', 'token');
  const previous = optStr(listing, 'previous_digest', 'token');
  const createdBy = creatorOf(listing, 'token');
  const endsAt = decide({
    createdBy,
    kind: kindOf(listing, 'token', createdBy),
    expiresAt: optStr(listing, 'token_expires_at', 'token'),
  });
  const { Item: lookup } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.token(digest), ConsistentRead: true }));
  if (!lookup) return 'raced';
  const token = generateToken();
  const next = tokenDigest(token);
  const hint = tokenHint(token);
  const { PK: _pk, SK: _sk, secret_ends_at: _ends, [TABLE_DEF.ttlAttribute]: _ttl, ...carried } = lookup;
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          // Conditioned on the digest read: of two rotations (or a rotation and a revocation) racing, one wins.
          {
            Update: {
              TableName: tableName(),
              Key: listingKey,
              UpdateExpression: 'SET digest = :next, hint = :hint, rotated_at = :at, previous_digest = :old',
              ConditionExpression: 'digest = :old',
              ExpressionAttributeValues: { ':next': next, ':hint': hint, ':at': nowIso(), ':old': digest },
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...carried, ...keys.token(next) },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          endsAt === null
            ? { Delete: { TableName: tableName(), Key: keys.token(digest) } }
            : {
                Update: {
                  TableName: tableName(),
                  Key: keys.token(digest),
                  // The TTL only tidies up, a day after the grace: the authorizer and the HTTP boundary judge the end.
                  UpdateExpression: 'SET secret_ends_at = :end, #ttl = :ttl',
                  ConditionExpression: 'attribute_exists(PK)',
                  ExpressionAttributeNames: { '#ttl': TABLE_DEF.ttlAttribute },
                  ExpressionAttributeValues: { ':end': endsAt, ':ttl': Math.ceil(Date.parse(endsAt) / 1000) + 86_400 },
                },
              },
          ...(previous && previous !== digest ? [{ Delete: { TableName: tableName(), Key: keys.token(previous) } }] : []),
          ...auditPuts(tenantId, audit(endsAt)),
        ],
      }),
    );
  } catch (err) {
    if (cancellationReasons(err)?.some((r) => r.Code === 'ConditionalCheckFailed')) return 'raced';
    throw err;
  }
  return { token, hint, previous_secret_ends_at: endsAt };
}
