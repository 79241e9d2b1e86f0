/**
 * The second sign-in step: a code from the authenticator app, or a recovery code, turns a
 * half-signed-in session into a full one. Every attempt is counted by the sign-in throttle before
 * it is checked (lib/store/login-failures.ts), as a password is; a code is accepted once at most:
 * its time step must come after the last one accepted, and a recovery code is spent as it is used.
 */
import { matchTotp } from '../auth/totp';
import { ConflictError, TooManyRequestsError, UnauthorizedError, ValidationError } from '../errors';
import { logger } from '../logger';
import { putAudit } from '../store/audit';
import { clearFailures, reserveAttempt } from '../store/login-failures';
import { getTwoFactor, spendRecoveryCode, spendStep } from '../store/two-factor';
import { auditBy, type SessionPrincipal } from './principal';
import { completeSignIn, LOCKED, loginFailed, type LoginResult } from './sessions';
import { normalizeRecoveryCode, normalizeTotpCode, recoveryDigest } from './two-factor';

const WRONG_CODE = 'code is incorrect or already used';
const WRONG_RECOVERY_CODE = 'recovery_code is incorrect or already used';

export async function verifyTwoFactor(
  p: SessionPrincipal,
  body: { code?: string; recovery_code?: string },
  pendingSessionId: string,
  address: string,
  now = Date.now(),
): Promise<LoginResult> {
  if (!p.twoFactor) throw new ConflictError('this session is already signed in');
  if (p.twoFactor !== 'verify') throw new ConflictError('set up two-factor sign-in first (POST /api/account/two-factor)');
  const { lockedForMs, lastChance } = await reserveAttempt(p.email, address, now);
  if (lockedForMs > 0) {
    loginFailed('locked', { id: p.userId, tenant_id: p.tenantId });
    throw new TooManyRequestsError(LOCKED, lockedForMs);
  }
  const state = await getTwoFactor(p.tenantId, p.userId);
  // Reset by an admin, or the user removed, since the password was checked.
  if (!state?.secret) throw new UnauthorizedError('session is no longer valid');
  const usedRecovery = body.recovery_code !== undefined;
  if (!(await accepted(p, state.secret, state.last_step, body, now))) {
    loginFailed('wrong_code', { id: p.userId, tenant_id: p.tenantId }, lastChance);
    await putAudit(
      p.tenantId,
      auditBy(p, 'session.sign_in_failed', { type: 'member', id: p.userId }, [
        { field: 'reason', after: usedRecovery ? 'wrong_recovery_code' : 'wrong_code' },
        ...(lastChance ? [{ field: 'lockout_started', after: true }] : []),
      ]),
    );
    throw new ValidationError(usedRecovery ? WRONG_RECOVERY_CODE : WRONG_CODE, { field: usedRecovery ? 'recovery_code' : 'code' });
  }
  await clearFailures(p.email, address);
  if (usedRecovery) logger.info('recovery code used', { tenant_id: p.tenantId, user_id: p.userId, left: state.recovery_left - 1 });
  return completeSignIn(
    p,
    pendingSessionId,
    [
      { field: 'two_factor', after: usedRecovery ? 'recovery_code' : 'totp' },
      ...(usedRecovery ? [{ field: 'recovery_codes_left', before: state.recovery_left, after: state.recovery_left - 1 }] : []),
    ],
    now,
  );
}

async function accepted(
  p: SessionPrincipal,
  secret: string,
  lastStep: number | undefined,
  body: { code?: string; recovery_code?: string },
  now: number,
): Promise<boolean> {
  if (body.recovery_code !== undefined) {
    const code = normalizeRecoveryCode(body.recovery_code);
    return code !== undefined && spendRecoveryCode(p.tenantId, p.userId, recoveryDigest(code));
  }
  const code = normalizeTotpCode(body.code ?? '');
  const step = code === undefined ? undefined : await matchTotp(secret, code, now, lastStep);
  // The write decides, not the read: two requests racing with one code cannot both pass it.
  return step !== undefined && spendStep(p.tenantId, p.userId, step);
}
