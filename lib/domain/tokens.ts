/** API tokens, managed by signed-in workspace users: create, list, revoke. */
import { createUsageKey, deleteUsageKey } from '../auth/usage-keys';
import { ForbiddenError, NotFoundError } from '../errors';
import { logger } from '../logger';
import type { Scope } from '../model';
// As a namespace: the store's verbs carry the same names as this module's.
import * as tokenStore from '../store/tokens';
import type { CreatedToken, TokenListing } from '../store/tokens';
import { auditBy, type SessionPrincipal } from './principal';

export async function createToken(p: SessionPrincipal, body: { name: string; scopes: Scope[] }): Promise<CreatedToken> {
  if (body.scopes.includes('*') && p.role !== 'admin') throw new ForbiddenError('only admins may grant the * scope', { field: 'scopes' });
  const scopes = [...new Set(body.scopes)];
  const created = await tokenStore.createToken(
    { id: p.tenantId, slug: p.tenantSlug },
    body.name,
    scopes,
    (id) => createUsageKey(id, p.tenantId),
    (id) =>
      auditBy(p, 'token.created', { type: 'token', id }, [
        { field: 'name', after: body.name },
        { field: 'scopes', after: scopes },
      ]),
  );
  // The id and the scope names; never the token, its digest or its name (free text).
  logger.info('token created', { token_id: created.id, scopes: created.scopes, user_id: p.userId });
  return created;
}

export const listTokens = (p: SessionPrincipal): Promise<TokenListing[]> => tokenStore.listTokens(p.tenantId);

export async function revokeToken(p: SessionPrincipal, tokenId: string): Promise<{ success: true }> {
  const revoked = await tokenStore.revokeToken(p.tenantId, tokenId, auditBy(p, 'token.revoked', { type: 'token', id: tokenId }));
  if (!revoked) throw new NotFoundError('token');
  await deleteUsageKey(revoked.usage_key_id);
  logger.info('token revoked', { token_id: tokenId, user_id: p.userId });
  return { success: true };
}
