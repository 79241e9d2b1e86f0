/** Two-factor sign-in's pure rules (lib/domain/two-factor.ts) and the half-signed-in session's lifetime. */
import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { ABSOLUTE_LIFETIME_MS, PENDING_LIFETIME_MS, sessionState } from '../../lib/auth/session';
import { matchTotp, newTotpSecret } from '../../lib/auth/totp';
import {
  checkDisable,
  checkPolicyChange,
  newRecoveryCodes,
  normalizeRecoveryCode,
  normalizeTotpCode,
  recoveryDigest,
  requiresTwoFactor,
  signInStep,
} from '../../lib/domain/two-factor';

describe('the policy', () => {
  it.each([
    ['off', 'admin', false],
    ['off', 'recruiter', false],
    ['admins', 'admin', true],
    ['admins', 'recruiter', false],
    ['everyone', 'admin', true],
    ['everyone', 'recruiter', true],
  ] as const)('%s requires it of %s: %s', (policy, role, required) => {
    expect(requiresTwoFactor(policy, role)).toBe(required);
  });

  it('a sign-in stops for a code when the user enrolled, for enrolment when the policy requires it, else goes straight in', () => {
    expect(signInStep('off', { role: 'recruiter', two_factor_enabled: true })).toBe('verify');
    expect(signInStep('everyone', { role: 'recruiter', two_factor_enabled: true })).toBe('verify');
    expect(signInStep('everyone', { role: 'recruiter', two_factor_enabled: false })).toBe('enrol');
    expect(signInStep('admins', { role: 'recruiter', two_factor_enabled: false })).toBeUndefined();
    expect(signInStep('off', { role: 'admin', two_factor_enabled: false })).toBeUndefined();
  });

  it('an admin requires it only once they use it; turning it off is refused while required', () => {
    expect(() => checkPolicyChange('admins', { role: 'admin', two_factor_enabled: false })).toThrow(/your own account/);
    expect(() => checkPolicyChange('admins', { role: 'admin', two_factor_enabled: true })).not.toThrow();
    expect(() => checkPolicyChange('off', { role: 'admin', two_factor_enabled: false })).not.toThrow();
    expect(() => checkDisable('everyone', 'recruiter')).toThrow(/cannot be turned off/);
    expect(() => checkDisable('admins', 'recruiter')).not.toThrow();
  });
});

describe('codes', () => {
  it('an app code is six digits; spaces are forgiven', () => {
    expect(normalizeTotpCode('123 456')).toBe('123456');
    for (const bad of ['12345', '1234567', 'abcdef', '']) expect(normalizeTotpCode(bad)).toBeUndefined();
  });

  it('ten distinct recovery codes of 16 characters; case and dashes do not matter; the digest is of the normalized code', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const [first] = codes;
    expect(first).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const typed = first!.toUpperCase().replace(/-/g, ' ');
    expect(normalizeRecoveryCode(typed)).toBe(first!.replace(/-/g, ''));
    expect(recoveryDigest(normalizeRecoveryCode(typed)!)).toBe(recoveryDigest(normalizeRecoveryCode(first!)!));
    expect(normalizeRecoveryCode('0000-0000-0000-0000')).toBeUndefined(); // 0 is not in the alphabet
    expect(normalizeRecoveryCode('abcd-efgh')).toBeUndefined();
  });

  it('a code matches one period either side of now, and never at or before the last step used', async () => {
    const secret = newTotpSecret();
    const now = Date.UTC(2026, 10, 27, 9, 0, 10);
    const at = (ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });
    const step = Math.floor(now / 30_000);
    expect(await matchTotp(secret, await at(now), now)).toBe(step);
    expect(await matchTotp(secret, await at(now - 30_000), now)).toBe(step - 1);
    expect(await matchTotp(secret, await at(now + 30_000), now)).toBe(step + 1);
    expect(await matchTotp(secret, await at(now - 60_000), now)).toBeUndefined();
    expect(await matchTotp(secret, await at(now), now, step)).toBeUndefined();
    expect(await matchTotp(secret, await at(now + 30_000), now, step)).toBe(step + 1);
  });
});

describe('the half-signed-in session', () => {
  it('ends 15 minutes after the password, however it is used; a full session lives 12 hours', () => {
    const created = new Date(Date.UTC(2026, 10, 27, 9)).toISOString();
    const at = (ms: number) => Date.parse(created) + ms;
    const pending = { created_at: created, last_seen_at: created, two_factor: 'verify' };
    expect(sessionState(pending, at(PENDING_LIFETIME_MS - 1))).toBe('active');
    expect(sessionState({ ...pending, last_seen_at: new Date(at(PENDING_LIFETIME_MS - 1)).toISOString() }, at(PENDING_LIFETIME_MS))).toBe(
      'expired',
    );
    expect(
      sessionState(
        { created_at: created, last_seen_at: new Date(at(ABSOLUTE_LIFETIME_MS - 60_000)).toISOString() },
        at(ABSOLUTE_LIFETIME_MS - 1),
      ),
    ).toBe('active');
  });
});
