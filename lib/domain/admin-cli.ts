/**
 * What the admin CLI (scripts/admin.ts) changes in a workspace: users, tokens and stuck
 * thresholds, each recorded in the workspace's audit log in the write's own transaction, with the
 * actor `system` (`admin-cli`), as its requisitions are (lib/domain/requisitions.ts). No change
 * leaves the CLI unaudited.
 */
import { hashPassword } from '../auth/password';
import type { Role, Scope, Stage } from '../model';
import type { AuditActor, AuditChange, AuditEntry, AuditTarget } from '../store/audit';
import { getStatsItem } from '../store/stats';
import { getTenantBySlug, setStuckDays } from '../store/tenants';
import { getTokenLifetime } from '../store/token-lifetime';
import { createToken, type CreatedToken } from '../store/tokens';
import { tokenExpiry } from './token-lifetime';
import { createUser, normalizeEmail, type User } from '../store/users';

export const CLI_ACTOR: AuditActor = { type: 'system', id: 'admin-cli' };

const byCli = (action: string, target: AuditTarget, changes: AuditChange[]): AuditEntry => ({
  action,
  actor: CLI_ACTOR,
  target,
  changes,
});

/** `admin user create`: a user with the password given (not a temporary one). */
export async function cliCreateUser(slug: string, email: string, password: string, role: Role): Promise<User> {
  const tenant = await getTenantBySlug(slug);
  return createUser(tenant.id, email, await hashPassword(password), role, {
    audit: (id) =>
      byCli('member.added', { type: 'member', id }, [
        { field: 'email', after: normalizeEmail(email) },
        { field: 'role', after: role },
      ]),
  });
}

/**
 * `admin token create`: a workspace token living the workspace's default lifetime (a setting,
 * GET /api/settings/tokens), or `expiresInDays` days, which the workspace's maximum bounds as it
 * bounds a token made in the console. `usageKeyFor` makes its rate-limit API key when deployed
 * (lib/auth/usage-keys.ts).
 */
export async function cliCreateToken(
  slug: string,
  name: string,
  scopes: Scope[],
  usageKeyFor?: (tenantId: string, tokenId: string) => Promise<{ id: string; value: string } | undefined>,
  expiresInDays?: number,
  now = Date.now(),
): Promise<CreatedToken> {
  const tenant = await getTenantBySlug(slug);
  const requested = expiresInDays === undefined ? undefined : new Date(now + expiresInDays * 86_400_000).toISOString();
  const expiresAt = tokenExpiry(await getTokenLifetime(tenant.id), requested, now);
  return createToken(
    tenant,
    name,
    scopes,
    usageKeyFor && ((id) => usageKeyFor(tenant.id, id)),
    (id) =>
      byCli('token.created', { type: 'token', id }, [
        { field: 'name', after: name },
        { field: 'scopes', after: scopes },
        { field: 'kind', after: 'workspace' },
        { field: 'expires_at', after: expiresAt },
      ]),
    undefined,
    { kind: 'workspace', expiresAt },
  );
}

/** `admin tenant set-stuck-days`: the thresholds given change, the others stay; the ones in force after it are answered. */
export async function cliSetStuckDays(slug: string, stuck: Partial<Record<Stage, number>>): Promise<Partial<Record<Stage, number>>> {
  const tenant = await getTenantBySlug(slug);
  // Thresholds live on the STATS item; a tenant from before that still has them on its own item.
  const current = (await getStatsItem(tenant.id)).stuckDays ?? tenant.stuck_days ?? {};
  const next = { ...current, ...stuck };
  // The stuck index catches up in the background (the stream job of npm start or the stack).
  await setStuckDays(tenant.id, next, {
    audit: byCli('settings.pipeline_changed', { type: 'workspace', id: tenant.id }, [{ field: 'stuck_days', after: next }]),
  });
  return next;
}
