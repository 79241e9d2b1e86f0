/** The workspace's API token lifetimes: read by every workspace user, changed by admins, audited. */
import { getTokenLifetime, setTokenLifetime } from '../store/token-lifetime';
import { auditBy, type SessionPrincipal } from './principal';
import { checkTokenLifetime, type TokenLifetime } from './token-lifetime';

export const getTokenSettings = (p: SessionPrincipal): Promise<TokenLifetime> => getTokenLifetime(p.tenantId);

export async function updateTokenSettings(p: SessionPrincipal, body: TokenLifetime): Promise<TokenLifetime> {
  const next = checkTokenLifetime({ default_days: body.default_days, max_days: body.max_days });
  const before = await getTokenLifetime(p.tenantId);
  await setTokenLifetime(
    p.tenantId,
    next,
    auditBy(p, 'settings.tokens_changed', { type: 'workspace', id: p.tenantId }, [{ field: 'token_lifetime', before, after: next }]),
  );
  return next;
}
