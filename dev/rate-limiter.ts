/**
 * What the usage plan does for the deployed API, done locally: a token bucket per API token
 * (refilled at `ratePerSecond`, holding at most `burst`) and a count per UTC day. It answers the
 * RateLimit-* headers API Gateway cannot send (docs/api.md, "Rate limits").
 */
import type { RateLimits } from '../lib/rate-limits';

export interface RateDecision {
  allowed: boolean;
  /** `quota` when the day's quota is used up, `rate` when the bucket is empty. */
  reason?: 'rate' | 'quota';
  retryAfterSeconds?: number;
  headers: Record<string, string>;
}

const DAY_MS = 86_400_000;

export function createRateLimiter(limits: RateLimits, now: () => number = Date.now) {
  const buckets = new Map<string, { tokens: number; at: number; day: number; used: number }>();
  return {
    limits,
    /** Take one request from `key`'s allowance (the API token's id). */
    take(key: string): RateDecision {
      const t = now();
      const day = Math.floor(t / DAY_MS);
      const b = buckets.get(key) ?? { tokens: limits.burst, at: t, day, used: 0 };
      b.tokens = Math.min(limits.burst, b.tokens + ((t - b.at) / 1000) * limits.ratePerSecond);
      b.at = t;
      if (b.day !== day) Object.assign(b, { day, used: 0 });
      buckets.set(key, b);
      if (limits.quotaPerDay > 0 && b.used >= limits.quotaPerDay) {
        const reset = Math.ceil(((day + 1) * DAY_MS - t) / 1000);
        return {
          allowed: false,
          reason: 'quota',
          retryAfterSeconds: reset,
          headers: { 'RateLimit-Limit': String(limits.quotaPerDay), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(reset) },
        };
      }
      if (b.tokens < 1) {
        const wait = Math.max(1, Math.ceil((1 - b.tokens) / limits.ratePerSecond));
        return {
          allowed: false,
          reason: 'rate',
          retryAfterSeconds: wait,
          headers: { 'RateLimit-Limit': String(limits.burst), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(wait) },
        };
      }
      b.tokens -= 1;
      b.used += 1;
      // Seconds until the bucket is full again: when the client may burst again.
      const reset = Math.ceil((limits.burst - b.tokens) / limits.ratePerSecond);
      return {
        allowed: true,
        headers: {
          'RateLimit-Limit': String(limits.burst),
          'RateLimit-Remaining': String(Math.floor(b.tokens)),
          'RateLimit-Reset': String(reset),
        },
      };
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
