/**
 * What the admin CLI (scripts/admin.ts) changes in a workspace: users, tokens and stuck
 * thresholds, each recorded in the workspace's audit log in the write's own transaction, with the
 * actor `system` (`admin-cli`), as its requisitions are (lib/domain/requisitions.ts). No change
 * leaves the CLI unaudited.
 */
import { hashPassword } from '../auth/password';
import type { Role, Scope, Stage } from '../model';
import type { AuditActor, AuditChange, AuditEntry, AuditTarget } from '../store/audit';
import { getStats } from '../store/stats';
import { getTenantBySlug, setStuckDays } from '../store/tenants';
import { createToken, type CreatedToken } from '../store/tokens';
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

/** `admin token create`; `usageKeyFor` makes its rate-limit API key when deployed (lib/auth/usage-keys.ts). */
export async function cliCreateToken(
  slug: string,
  name: string,
  scopes: Scope[],
  usageKeyFor?: (tenantId: string, tokenId: string) => Promise<{ id: string; value: string } | undefined>,
): Promise<CreatedToken> {
  const tenant = await getTenantBySlug(slug);
  return createToken(tenant, name, scopes, usageKeyFor && ((id) => usageKeyFor(tenant.id, id)), (id) =>
    byCli('token.created', { type: 'token', id }, [
      { field: 'name', after: name },
      { field: 'scopes', after: scopes },
    ]),
  );
}

/** `admin tenant set-stuck-days`: the thresholds given change, the others stay; the ones in force after it are answered. */
export async function cliSetStuckDays(slug: string, stuck: Partial<Record<Stage, number>>): Promise<Partial<Record<Stage, number>>> {
  const tenant = await getTenantBySlug(slug);
  // Thresholds live on the STATS item; a tenant from before that still has them on its own item.
  const current = (await getStats(tenant.id)).stuckDays ?? tenant.stuck_days ?? {};
  const next = { ...current, ...stuck };
  // The stuck index catches up in the background (the stream job of npm start or the stack).
  await setStuckDays(tenant.id, next, {
    audit: byCli('settings.pipeline_changed', { type: 'workspace', id: tenant.id }, [{ field: 'stuck_days', after: next }]),
  });
  return next;
}
