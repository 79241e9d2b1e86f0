/**
 * API tokens, managed by signed-in workspace users: create, list, revoke; and the sweep that keeps
 * a user's tokens within their role when an admin lowers it or removes them. A token never holds
 * a scope its creator's role may not (lib/permissions.ts).
 */
import { createUsageKey, deleteUsageKey } from '../auth/usage-keys';
import { ForbiddenError, NotFoundError } from '../errors';
import { logger } from '../logger';
import type { Role, Scope, TokenKind } from '../model';
import { mayRevoke, narrowTo, scopesBeyond } from '../permissions';
// As a namespace: the store's verbs carry the same names as this module's.
import * as tokenStore from '../store/tokens';
import type { CreatedToken, TokenListing } from '../store/tokens';
import { getTokenLifetime } from '../store/token-lifetime';
import { tokenExpiry } from './token-lifetime';
import { auditBy, type SessionPrincipal } from './principal';

export async function createToken(
  p: SessionPrincipal,
  body: { name: string; scopes: Scope[]; kind?: TokenKind; expires_at?: string },
  now = Date.now(),
): Promise<CreatedToken> {
  const scopes = [...new Set(body.scopes)];
  const kind = body.kind ?? 'personal';
  if (kind === 'workspace' && p.role !== 'admin')
    throw new ForbiddenError('only workspace admins may make a workspace token; make a personal token instead', { field: 'kind' });
  const beyond = scopesBeyond(p.role, scopes);
  if (beyond.length)
    throw new ForbiddenError(`a ${p.role} may not grant ${beyond.join(', ')}: a token can do at most what its creator's role may`, {
      field: 'scopes',
    });
  const expiresAt = tokenExpiry(await getTokenLifetime(p.tenantId), body.expires_at, now);
  let created: CreatedToken;
  try {
    created = await tokenStore.createToken(
      { id: p.tenantId, slug: p.tenantSlug },
      body.name,
      scopes,
      (id) => createUsageKey(id, p.tenantId),
      (id) =>
        auditBy(p, 'token.created', { type: 'token', id }, [
          { field: 'name', after: body.name },
          { field: 'scopes', after: scopes },
          { field: 'kind', after: kind },
          { field: 'expires_at', after: expiresAt },
        ]),
      { id: p.userId, email: p.email, role: p.role },
      { kind, expiresAt },
    );
  } catch (err) {
    // The session's role was lowered, or the user removed, since the session was checked.
    if (!(err instanceof tokenStore.MakerChangedError)) throw err;
    await deleteUsageKey(err.usageKeyId);
    throw new ForbiddenError('your role or membership changed while the token was being made; sign in again', { field: 'scopes' });
  }
  // The id and the scope names; never the token, its digest or its name (free text).
  logger.info('token created', { token_id: created.id, scopes: created.scopes, user_id: p.userId });
  return created;
}

export const listTokens = (p: SessionPrincipal): Promise<TokenListing[]> => tokenStore.listTokens(p.tenantId);

export async function revokeToken(p: SessionPrincipal, tokenId: string): Promise<{ success: true }> {
  const revoked = await tokenStore.revokeToken(
    p.tenantId,
    tokenId,
    auditBy(p, 'token.revoked', { type: 'token', id: tokenId }),
    (by, kind) => {
      if (!mayRevoke(p.role, p.userId, by?.id, kind))
        throw new ForbiddenError(
          by && kind === 'personal'
            ? 'only workspace admins may revoke a token someone else made'
            : 'only workspace admins may revoke a workspace token',
        );
    },
  );
  if (!revoked) throw new NotFoundError('token');
  await deleteUsageKey(revoked.usage_key_id);
  logger.info('token revoked', { token_id: tokenId, user_id: p.userId });
  return { success: true };
}

/**
 * Keep a user's personal tokens within `role` after an admin changed it: each token is narrowed
 * to the role's scopes, or revoked when none is left (`role` undefined: the user was removed or
 * deactivated, so every personal token of theirs is revoked). Workspace tokens they made belong
 * to the workspace and are left alone. Each change is audited as the admin's. Runs after the
 * membership write has committed; token creation is conditioned on the maker's role, so none escapes.
 * Answers the ids of the tokens revoked.
 */
export async function sweepTokensOf(
  p: SessionPrincipal,
  userId: string,
  role: Role | undefined,
  reason: 'role_changed' | 'member_removed' | 'member_deactivated' = role ? 'role_changed' : 'member_removed',
): Promise<string[]> {
  const revokedIds: string[] = [];
  for (const t of await tokenStore.tokensCreatedBy(p.tenantId, userId)) {
    if (t.kind === 'workspace') continue;
    const scopes = role ? narrowTo(role, t.scopes) : [];
    if (scopes.length === t.scopes.length && scopes.every((s) => t.scopes.includes(s))) continue;
    const target = { type: 'token', id: t.id };
    if (scopes.length) {
      const audit = auditBy(p, 'token.narrowed', target, [
        { field: 'scopes', before: t.scopes, after: scopes },
        { field: 'reason', after: reason },
      ]);
      if (await tokenStore.setTokenScopes(p.tenantId, t, scopes, audit))
        logger.info('token narrowed', { token_id: t.id, scopes, user_id: p.userId });
      continue;
    }
    const audit = auditBy(p, 'token.revoked', target, [{ field: 'reason', after: reason }]);
    const revoked = await tokenStore.revokeToken(p.tenantId, t.id, audit);
    if (!revoked) continue; // revoked by someone else meanwhile
    revokedIds.push(t.id);
    await deleteUsageKey(revoked.usage_key_id);
    logger.info('token revoked', { token_id: t.id, user_id: p.userId, reason });
  }
  return revokedIds;
}
