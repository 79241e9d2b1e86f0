/**
 * Rate limits per API token: the one source of the numbers. The deployed stack turns them into an
 * API Gateway usage plan (infra/constructs/rate-limits.ts) and `npm start`'s local gateway enforces the same
 * numbers (dev/rate-limiter.ts). A platform team changes them here, or per deployment
 * with the CDK context keys below (`cdk deploy -c rateLimitPerSecond=50`), or locally with the
 * RATE_LIMIT_* environment variables (see docs/api.md, "Rate limits").
 *
 * Cookie routes (the console) have their own numbers per signed-in member (SESSION_RATE_LIMITS):
 * deployed, WAF counts them per session cookie (infra/constructs/waf.ts); `npm start` per member.
 */
export interface RateLimits {
  /** Steady requests per second per token (the token bucket's refill rate). */
  ratePerSecond: number;
  /** Requests a token may make at once above the steady rate (the bucket's size). */
  burst: number;
  /** Requests per token per UTC day; 0 means no quota. */
  quotaPerDay: number;
}

/**
 * 10 requests/s steady, bursts of 20, 100,000 a day: a sync job paging 200 candidates per request
 * reads 2,000 candidates a second; Greenhouse Harvest allows 50 per 10 s, Lever 10/s with bursts of 20.
 */
export const TOKEN_RATE_LIMITS: RateLimits = { ratePerSecond: 10, burst: 20, quotaPerDay: 100_000 };

/**
 * Per signed-in member on the cookie routes: 25 requests/s steady, bursts of 100, no daily quota.
 * A console page loads with a dozen requests at once and people click at human speed, so only a
 * script driving a session reaches them. Deployed, WAF counts a session's requests over 60 s
 * (SESSION_RATE_LIMIT_PER_MINUTE) instead of a bucket; `RATE_LIMITS=off` turns them off locally.
 */
export const SESSION_RATE_LIMITS: RateLimits = { ratePerSecond: 25, burst: 100, quotaPerDay: 0 };
/** What WAF allows one session cookie in any 60 s window: the steady rate over the window. */
export const SESSION_RATE_LIMIT_PER_MINUTE = SESSION_RATE_LIMITS.ratePerSecond * 60;

/** CDK context keys (`-c key=value`) and environment variables that override each number. */
export const RATE_LIMIT_CONTEXT = {
  ratePerSecond: 'rateLimitPerSecond',
  burst: 'rateLimitBurst',
  quotaPerDay: 'rateLimitQuotaPerDay',
} as const;
export const RATE_LIMIT_ENV = {
  ratePerSecond: 'RATE_LIMIT_PER_SECOND',
  burst: 'RATE_LIMIT_BURST',
  quotaPerDay: 'RATE_LIMIT_QUOTA_PER_DAY',
} as const;

/**
 * The limits with overrides applied (`read(name)` returns a context value or an environment
 * variable). A value that is not a whole number >= 0 (>= 1 for the rate and burst) is an error:
 * a typo must not silently lift a limit.
 */
export function rateLimitsFrom(read: (name: string) => unknown, names: Record<keyof RateLimits, string>): RateLimits {
  const out = { ...TOKEN_RATE_LIMITS };
  for (const k of Object.keys(out) as (keyof RateLimits)[]) {
    const raw = read(names[k]);
    if (raw === undefined || raw === '') continue;
    const n = Number(raw);
    const min = k === 'quotaPerDay' ? 0 : 1;
    if (!Number.isInteger(n) || n < min) throw new Error(`${names[k]} must be a whole number >= ${min}, got ${JSON.stringify(raw)}`);
    out[k] = n;
  }
  if (out.burst < out.ratePerSecond) throw new Error(`the burst (${out.burst}) must be at least the rate (${out.ratePerSecond})`);
  return out;
}

/** The 429 bodies; the deployed gateway responses and the local gateway answer the same. */
export const RATE_LIMITED = {
  // Also the answer to the stage-wide throttle, which counts every caller: not "this token".
  throttled: { status: 429, error: 'Too many requests; slow down and retry after the Retry-After seconds', code: 'rate_limited' },
  quota: { status: 429, error: 'This API token used its daily request quota; it resets at 00:00 UTC', code: 'rate_limited' },
} as const;
/**
 * Retry-After the deployed gateway responses send. A gateway response has static headers only, so
 * it cannot say when the daily quota resets (the local gateway can, and does).
 */
export const DEPLOYED_RETRY_AFTER = { throttled: '1', quota: '3600' } as const;
