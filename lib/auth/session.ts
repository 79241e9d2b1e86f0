/**
 * Cookie sessions. The cookie holds 256 random bits; only their SHA-256 digest is stored.
 * `__Host-` makes browsers insist on Secure, Path=/ and no Domain.
 */
import { createHash, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = '__Host-tp_session';
/** A session unused for this long is over. */
export const IDLE_TIMEOUT_MS = 30 * 60_000;
/** A session is over this long after login, however active. */
export const ABSOLUTE_LIFETIME_MS = 12 * 3_600_000;
/** last_seen_at is written at most this often, not on every request. */
export const TOUCH_INTERVAL_MS = 60_000;

export const newSessionId = () => randomBytes(32).toString('base64url');
export const sessionDigest = (id: string) => createHash('sha256').update(id).digest('hex');

export function sessionCookie(id: string): string {
  return `${SESSION_COOKIE}=${id}; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=${ABSOLUTE_LIFETIME_MS / 1000}`;
}

export const clearedSessionCookie = () => `${SESSION_COOKIE}=; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=0`;

/** The session id from a Cookie header, if present and well formed. */
export function sessionIdFrom(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export type SessionState = 'active' | 'idle-expired' | 'expired';

/** A half-signed-in session (a two-factor step due) lasts this long, however it is used. */
export const PENDING_LIFETIME_MS = 15 * 60_000;

export function sessionState(s: { created_at: string; last_seen_at: string; two_factor?: string }, now: number): SessionState {
  if (now - Date.parse(s.created_at) >= (s.two_factor ? PENDING_LIFETIME_MS : ABSOLUTE_LIFETIME_MS)) return 'expired';
  if (now - Date.parse(s.last_seen_at) >= IDLE_TIMEOUT_MS) return 'idle-expired';
  return 'active';
}
