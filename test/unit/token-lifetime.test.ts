/** The token lifetime rules (lib/domain/token-lifetime.ts): expiry on create, the settings' bounds, rotation's grace. */
import { describe, expect, it } from 'vitest';
import { checkTokenLifetime, daysUntil, graceEnd, tokenExpiry } from '../../lib/domain/token-lifetime';
import { ConflictError, ValidationError } from '../../lib/errors';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const DAY = 86_400_000;
const lifetime = { default_days: 90, max_days: 366 };
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err as ValidationError;
  }
  throw new Error('not refused');
};

describe('tokenExpiry', () => {
  it('gives the default lifetime when none is asked', () => {
    expect(tokenExpiry(lifetime, undefined, NOW)).toBe(new Date(NOW + 90 * DAY).toISOString());
    expect(tokenExpiry({ default_days: 7, max_days: 30 }, undefined, NOW)).toBe(new Date(NOW + 7 * DAY).toISOString());
  });

  it('keeps an asked date in the future and within the maximum, normalized to UTC', () => {
    expect(tokenExpiry(lifetime, '2026-03-02T14:00:00+02:00', NOW)).toBe('2026-03-02T12:00:00.000Z');
    expect(tokenExpiry(lifetime, new Date(NOW + 366 * DAY).toISOString(), NOW)).toBe(new Date(NOW + 366 * DAY).toISOString());
  });

  it('refuses now, the past and beyond the maximum, with field expires_at', () => {
    for (const at of [NOW, NOW - 1, NOW + 366 * DAY + 1]) {
      const err = refusal(() => tokenExpiry(lifetime, new Date(at).toISOString(), NOW));
      expect(err).toBeInstanceOf(ValidationError);
      expect([err.field, err.code]).toEqual(['expires_at', 'invalid_field']);
    }
    expect(refusal(() => tokenExpiry({ default_days: 7, max_days: 30 }, new Date(NOW + 31 * DAY).toISOString(), NOW)).message).toBe(
      `expires_at must be at most 30 days from now (the workspace's maximum token lifetime), so no later than ${new Date(NOW + 30 * DAY).toISOString()}`,
    );
  });
});

describe('checkTokenLifetime', () => {
  it('refuses a default above the maximum, with field default_days', () => {
    expect(checkTokenLifetime({ default_days: 30, max_days: 30 })).toEqual({ default_days: 30, max_days: 30 });
    expect(refusal(() => checkTokenLifetime({ default_days: 31, max_days: 30 })).field).toBe('default_days');
  });
});

describe('graceEnd', () => {
  it('ends after the grace, at once for 0, never after the token expires; an expired token is not rotated', () => {
    expect(graceEnd(NOW, 3600, undefined)).toBe(new Date(NOW + 3_600_000).toISOString());
    expect(graceEnd(NOW, 0, new Date(NOW + DAY).toISOString())).toBeNull();
    expect(graceEnd(NOW, 86_400, new Date(NOW + 60_000).toISOString())).toBe(new Date(NOW + 60_000).toISOString());
    const err = refusal(() => graceEnd(NOW, 60, new Date(NOW).toISOString()));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.message).toBe(`this token expired at ${new Date(NOW).toISOString()}; make a new token instead`);
  });
});

describe('daysUntil', () => {
  it('rounds up', () => {
    expect(daysUntil(new Date(NOW + 13 * DAY + 1).toISOString(), NOW)).toBe(14);
    expect(daysUntil(new Date(NOW + 14 * DAY).toISOString(), NOW)).toBe(14);
  });
});
