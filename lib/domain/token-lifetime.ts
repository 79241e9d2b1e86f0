/**
 * How long API tokens live: every token made now expires, by default after the workspace's
 * default lifetime and never later than its maximum (both workspace settings). Pure rules, read
 * by token creation, the token settings and the HTTP boundary that refuses an expired token.
 */
import { ConflictError, ValidationError } from '../errors';
import { DEFAULT_TOKEN_LIFETIME as DEFAULTS } from '../model';

const DAY_MS = 86_400_000;

/** The workspace's token lifetimes, in days. */
export interface TokenLifetime {
  /** Given to a token made without `expires_at`. */
  default_days: number;
  /** No token may be made to live longer. */
  max_days: number;
}

export const DEFAULT_TOKEN_LIFETIME: TokenLifetime = { ...DEFAULTS };

/** A lifetime an admin saves: the default may not exceed the maximum. */
export function checkTokenLifetime(l: TokenLifetime): TokenLifetime {
  if (l.default_days > l.max_days)
    throw new ValidationError(`default_days (${l.default_days}) must not exceed max_days (${l.max_days})`, { field: 'default_days' });
  return l;
}

/**
 * When a token made at `now` expires: `requested` when it lies in the future and within the
 * workspace's maximum, the default lifetime when none is asked; anything else is refused with
 * field expires_at.
 */
export function tokenExpiry(lifetime: TokenLifetime, requested: string | undefined, now: number): string {
  if (requested === undefined) return new Date(now + lifetime.default_days * DAY_MS).toISOString();
  const at = Date.parse(requested);
  if (!(at > now)) throw new ValidationError('expires_at must be in the future', { field: 'expires_at' });
  const latest = now + lifetime.max_days * DAY_MS;
  if (at > latest)
    throw new ValidationError(
      `expires_at must be at most ${lifetime.max_days} days from now (the workspace's maximum token lifetime), so no later than ${new Date(latest).toISOString()}`,
      { field: 'expires_at' },
    );
  return new Date(at).toISOString();
}

/**
 * When the old secret of a token rotated at `now` stops working: null for at once (no grace),
 * and never after the token itself expires. An expired token is not rotated: a new secret would
 * be born expired.
 */
export function graceEnd(now: number, graceSeconds: number, expiresAt: string | undefined): string | null {
  if (expiresAt !== undefined && Date.parse(expiresAt) <= now)
    throw new ConflictError(`this token expired at ${expiresAt}; make a new token instead`);
  if (graceSeconds === 0) return null;
  const end = now + graceSeconds * 1000;
  return new Date(expiresAt === undefined ? end : Math.min(end, Date.parse(expiresAt))).toISOString();
}

/** Whole days from `now` until `at`, rounded up: what the console's warning says. */
export const daysUntil = (at: string, now: number) => Math.ceil((Date.parse(at) - now) / DAY_MS);
