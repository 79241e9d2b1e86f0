/**
 * The workspace side of two-factor sign-in, for its admins: the policy (audited; members it newly
 * requires are signed out, and set it up at their next sign-in) and resetting a member's
 * two-factor when they lost their device (audited; their sessions end).
 */
import { NotFoundError } from '../errors';
import { endSessionsOf } from '../store/sessions';
import { clearTwoFactor, getTwoFactorPolicy, setTwoFactorPolicy } from '../store/two-factor';
import { getUser, listUsers } from '../store/users';
import type { TwoFactorPolicy } from '../model';
import { auditBy, type SessionPrincipal } from './principal';
import { checkPolicyChange, requiresTwoFactor } from './two-factor';

export const getTwoFactorSettings = async (p: SessionPrincipal) => ({ required_for: await getTwoFactorPolicy(p.tenantId) });

export async function updateTwoFactorSettings(p: SessionPrincipal, next: TwoFactorPolicy) {
  const [before, users] = await Promise.all([getTwoFactorPolicy(p.tenantId), listUsers(p.tenantId)]);
  const actor = users.find((u) => u.id === p.userId);
  checkPolicyChange(next, actor ?? { role: p.role, two_factor_enabled: false });
  // A session made before the policy must not outlive it for someone who has not enrolled.
  const behind = users.filter((u) => requiresTwoFactor(next, u.role) && !u.two_factor_enabled);
  await setTwoFactorPolicy(
    p.tenantId,
    next,
    auditBy(p, 'settings.two_factor_changed', { type: 'workspace', id: p.tenantId }, [
      { field: 'required_for', before, after: next },
      { field: 'members_to_enrol', after: behind.length },
    ]),
  );
  await Promise.all(behind.map((u) => endSessionsOf(p.tenantId, u.id)));
  return { required_for: next };
}

export async function resetMemberTwoFactor(p: SessionPrincipal, userId: string): Promise<{ success: true }> {
  const target = await getUser(p.tenantId, userId);
  if (!target) throw new NotFoundError('member');
  const done = await clearTwoFactor(
    p.tenantId,
    userId,
    auditBy(p, 'member.two_factor_reset', { type: 'member', id: userId }, [
      { field: 'two_factor_enabled', before: target.two_factor_enabled, after: false },
    ]),
  );
  if (!done) throw new NotFoundError('member');
  await endSessionsOf(p.tenantId, userId);
  return { success: true };
}
