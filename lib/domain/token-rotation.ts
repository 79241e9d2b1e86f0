/**
 * Rotating an API token from the console: a new secret, shown once, with the same scopes, kind,
 * expiry and creator; the old secret keeps working for the grace the caller chose. Only the
 * token's creator (a personal token) or an admin may rotate it, as for revoking.
 */
import { ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { logger } from '../logger';
import { DEFAULT_ROTATION_GRACE_SECONDS } from '../model';
import { mayRevoke } from '../permissions';
import { rotateTokenSecret } from '../store/token-rotation';
import { listTokens } from '../store/tokens';
import { auditBy, type SessionPrincipal } from './principal';
import { graceEnd } from './token-lifetime';

export async function rotateToken(p: SessionPrincipal, tokenId: string, body: { grace_seconds?: number }, now = Date.now()) {
  const grace = body.grace_seconds ?? DEFAULT_ROTATION_GRACE_SECONDS;
  const rotated = await rotateTokenSecret(
    p.tenantId,
    tokenId,
    (t) => {
      if (!mayRevoke(p.role, p.userId, t.createdBy?.id, t.kind))
        throw new ForbiddenError(
          t.createdBy && t.kind === 'personal'
            ? 'only workspace admins may rotate a token someone else made'
            : 'only workspace admins may rotate a workspace token',
        );
      return graceEnd(now, grace, t.expiresAt);
    },
    (endsAt) =>
      auditBy(p, 'token.rotated', { type: 'token', id: tokenId }, [
        { field: 'grace_seconds', after: grace },
        { field: 'previous_secret_ends_at', after: endsAt ?? new Date(now).toISOString() },
      ]),
  );
  if (rotated === false) throw new NotFoundError('token');
  if (rotated === 'raced')
    throw new ConflictError('the token was rotated or revoked by someone else at the same time; reload and try again');
  // Read back for the answer: the listing item holds name, scopes, kind and expiry as they are now.
  const listing = (await listTokens(p.tenantId)).find((t) => t.id === tokenId);
  if (!listing) throw new NotFoundError('token');
  logger.info('token rotated', { token_id: tokenId, user_id: p.userId, grace_seconds: grace });
  return {
    id: listing.id,
    name: listing.name,
    scopes: listing.scopes,
    token: rotated.token,
    created_at: listing.created_at,
    kind: listing.kind,
    expires_at: listing.expires_at,
    previous_secret_ends_at: rotated.previous_secret_ends_at,
  };
}
