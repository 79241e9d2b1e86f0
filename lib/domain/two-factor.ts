/**
 * Two-factor sign-in's rules, pure: who must use it under the workspace policy, which step a
 * sign-in stops at after the password, what a code looks like, and the recovery codes' shape.
 * The TOTP arithmetic itself is otplib's (lib/auth/totp.ts), kept out of this module so that only
 * the functions that check a code bundle it.
 */
import { createHash, randomInt } from 'node:crypto';
import { ConflictError } from '../errors';
import type { Role, TwoFactorPolicy } from '../model';

export { TWO_FACTOR_POLICIES, type TwoFactorPolicy } from '../model';

/**
 * Where a half-finished sign-in stands: `verify`, the password was right and a code is due;
 * `enrol`, the policy requires two-factor and the user has none yet.
 */
export type TwoFactorStep = 'verify' | 'enrol';

/** Recovery codes handed out at enrolment, each good once. */
export const RECOVERY_CODE_COUNT = 10;

export const requiresTwoFactor = (policy: TwoFactorPolicy, role: Role): boolean =>
  policy === 'everyone' || (policy === 'admins' && role === 'admin');

/** The step a sign-in with the right password stops at, or undefined: straight in. */
export function signInStep(policy: TwoFactorPolicy, user: { role: Role; two_factor_enabled: boolean }): TwoFactorStep | undefined {
  if (user.two_factor_enabled) return 'verify';
  return requiresTwoFactor(policy, user.role) ? 'enrol' : undefined;
}

/** An authenticator app's code: six digits (spaces, as some apps show them, removed). */
export const normalizeTotpCode = (code: string): string | undefined => {
  const digits = code.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
};

/**
 * Recovery codes: 16 characters from a 31-letter alphabet without look-alikes (79 random bits),
 * shown in groups of four. With that much entropy a SHA-256 digest is as safe to store as a slow
 * password hash, and lets a code be found and spent in one conditional write.
 */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const CODE_LENGTH = 16;

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
}

/** A recovery code as typed: case, dashes and spaces do not matter. */
export const normalizeRecoveryCode = (code: string): string | undefined => {
  const plain = code.toLowerCase().replace(/[\s-]+/g, '');
  return plain.length === CODE_LENGTH && [...plain].every((c) => ALPHABET.includes(c)) ? plain : undefined;
};

export const recoveryDigest = (normalized: string) => createHash('sha256').update(`recovery:${normalized}`).digest('hex');

/**
 * An admin may require two-factor only once they use it themselves: otherwise the change would
 * lock out the very person making it (GitHub's organizations have the same rule).
 */
export function checkPolicyChange(next: TwoFactorPolicy, actor: { role: Role; two_factor_enabled: boolean }): void {
  if (requiresTwoFactor(next, actor.role) && !actor.two_factor_enabled)
    throw new ConflictError('turn on two-factor sign-in for your own account before requiring it', { field: 'required_for' });
}

/** Turning two-factor off is refused while the policy requires it of this user; an admin's reset is the way out. */
export function checkDisable(policy: TwoFactorPolicy, role: Role): void {
  if (requiresTwoFactor(policy, role))
    throw new ConflictError('the workspace requires two-factor sign-in for your role; it cannot be turned off', { field: 'password' });
}
