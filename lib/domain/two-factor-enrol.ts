/**
 * A user's own two-factor sign-in: its state, confirming a set-up (POST /api/account/two-factor
 * starts one, lib/domain/two-factor-start.ts), and turning it off with the password.
 */
import { matchTotp } from '../auth/totp';
import { verifyPassword } from '../auth/password';
import { ConflictError, TooManyRequestsError, UnauthorizedError, ValidationError } from '../errors';
import { logger } from '../logger';
import { clearFailures, reserveAttempt } from '../store/login-failures';
import { clearTwoFactor, confirmSecret, getTwoFactor, getTwoFactorPolicy } from '../store/two-factor';
import { getUser } from '../store/users';
import { auditBy, type SessionPrincipal } from './principal';
import { completeSignIn, LOCKED, loginFailed, type LoginResult } from './sessions';
import { checkDisable, newRecoveryCodes, normalizeRecoveryCode, normalizeTotpCode, recoveryDigest, requiresTwoFactor } from './two-factor';

const self = (p: SessionPrincipal) => ({ type: 'member' as const, id: p.userId });

export async function twoFactorStatus(p: SessionPrincipal) {
  const [state, policy] = await Promise.all([getTwoFactor(p.tenantId, p.userId), getTwoFactorPolicy(p.tenantId)]);
  if (!state) throw new UnauthorizedError('session is no longer valid');
  return {
    enabled: state.secret !== undefined,
    enabled_at: state.enabled_at ?? null,
    recovery_codes_left: state.recovery_left,
    required: requiresTwoFactor(policy, p.role),
  };
}

/**
 * A code from the app proves it holds the pending secret: two-factor is on, and the recovery codes
 * are answered, this once. Made from a session half signed in for want of enrolment, the sign-in
 * completes too (`signIn`: the new session to set).
 */
export async function confirmTwoFactor(
  p: SessionPrincipal,
  code: string,
  sessionId: string,
  now = Date.now(),
): Promise<{ recovery_codes: string[]; signIn?: LoginResult }> {
  const digits = normalizeTotpCode(code);
  if (digits === undefined) throw new ValidationError('code must be the six digits your authenticator app shows', { field: 'code' });
  const state = await getTwoFactor(p.tenantId, p.userId);
  if (!state) throw new UnauthorizedError('session is no longer valid');
  if (state.secret) throw new ConflictError('two-factor sign-in is already on');
  if (!state.pending_secret) throw new ConflictError('no two-factor set-up was started; start one first (POST /api/account/two-factor)');
  const step = await matchTotp(state.pending_secret, digits, now);
  if (step === undefined)
    throw new ValidationError('code does not match; check the time on your device and try the current code', { field: 'code' });
  const codes = newRecoveryCodes();
  const saved = await confirmSecret(
    p.tenantId,
    p.userId,
    {
      secret: state.pending_secret,
      step,
      recoveryDigests: codes.map((c) => recoveryDigest(normalizeRecoveryCode(c)!)),
      at: new Date(now).toISOString(),
    },
    auditBy(p, 'member.two_factor_enabled', self(p), [{ field: 'two_factor_enabled', before: false, after: true }]),
  );
  if (!saved) throw new ConflictError('another two-factor set-up started meanwhile; confirm the latest one');
  logger.info('two-factor enabled', { tenant_id: p.tenantId, user_id: p.userId });
  const signIn =
    p.twoFactor === 'enrol' ? await completeSignIn(p, sessionId, [{ field: 'two_factor', after: 'enrolled' }], now) : undefined;
  return { recovery_codes: codes, ...(signIn && { signIn }) };
}

/** Off, with the password (throttled as a sign-in is), unless the workspace requires it of the user. */
export async function disableTwoFactor(
  p: SessionPrincipal,
  password: string,
  address: string,
  now = Date.now(),
): Promise<{ success: true }> {
  checkDisable(await getTwoFactorPolicy(p.tenantId), p.role);
  const user = await getUser(p.tenantId, p.userId);
  if (!user) throw new UnauthorizedError('session is no longer valid');
  // Already off: nothing to protect, so no password is checked (nor counted).
  if (!user.two_factor_enabled) return { success: true };
  const { lockedForMs, lastChance } = await reserveAttempt(p.email, address, now);
  if (lockedForMs > 0) {
    loginFailed('locked', user);
    throw new TooManyRequestsError(LOCKED, lockedForMs);
  }
  if (!(await verifyPassword(password, user.password_hash))) {
    loginFailed('bad_credentials', user, lastChance);
    throw new ValidationError('password is incorrect', { field: 'password' });
  }
  await clearFailures(p.email, address);
  await clearTwoFactor(
    p.tenantId,
    p.userId,
    auditBy(p, 'member.two_factor_disabled', self(p), [{ field: 'two_factor_enabled', before: true, after: false }]),
  );
  logger.info('two-factor disabled', { tenant_id: p.tenantId, user_id: p.userId });
  return { success: true };
}
