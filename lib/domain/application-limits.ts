/**
 * How many applications one sender may post, the one source of the numbers (docs/api.md,
 * "Applying"). Counted per client address and per email, each per job and per workspace, in fixed
 * windows: a counter item per window (lib/store/application-limits.ts) that expires with it. The
 * numbers let a household or an office behind one address apply to many jobs, and a person resend
 * a form; a script posting the same address or email at volume is stopped. `RATE_LIMITS=off`
 * (local load runs, which post from one address) turns them off, as it does every other limit.
 */
import { createHmac } from 'node:crypto';
import { APPLY_LIMIT_PREFIX } from '../store/table';

export type LimitSubject = 'ip' | 'email';
export type LimitScope = 'job' | 'workspace';

export interface ApplicationLimit {
  by: LimitSubject;
  per: LimitScope;
  /** Applications counted in one window; the next one is refused. */
  max: number;
  windowMs: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const APPLICATION_LIMITS: readonly ApplicationLimit[] = [
  { by: 'ip', per: 'job', max: 10, windowMs: HOUR },
  { by: 'ip', per: 'workspace', max: 30, windowMs: HOUR },
  { by: 'email', per: 'job', max: 3, windowMs: DAY },
  { by: 'email', per: 'workspace', max: 10, windowMs: DAY },
];

/**
 * How many CV uploads one client address may ask for (the public upload route): a person may
 * replace a CV a few times; a script filling the bucket is stopped. The bucket's lifecycle rule
 * deletes what no application took within a day.
 */
export const CV_UPLOAD_LIMITS: readonly ApplicationLimit[] = [
  { by: 'ip', per: 'job', max: 20, windowMs: HOUR },
  { by: 'ip', per: 'workspace', max: 60, windowMs: HOUR },
];

/** The refusal a limit's counter answers, as the ApplicationsRefused metric's reason. */
export const limitReason = (l: ApplicationLimit) => `limit_${l.by}_${l.per}` as const;

/** One counter to take a slot from: its key parts, its limit and when it may be deleted. */
export interface LimitCounter {
  limit: ApplicationLimit;
  pk: string;
  sk: string;
  /** Epoch seconds: an hour past the window's end. */
  expiresAt: number;
}

/**
 * The counters one application takes a slot from. The address and the email are stored only as
 * keyed digests (HMAC with the form secret), so the counters hold nothing that reads back as either.
 */
export function limitCounters(
  secret: string,
  who: { tenantId: string; jobId: string; address: string; email?: string },
  now: number,
  limits: readonly ApplicationLimit[] = APPLICATION_LIMITS,
  /** Counters of another kind of request (`cv#`): apart from the applications' own. */
  kind = '',
): LimitCounter[] {
  return limits.map((limit) => {
    const value = limit.by === 'ip' ? who.address : (who.email ?? '').trim().toLowerCase();
    const digest = createHmac('sha256', secret).update(`${limit.by}\n${value}`).digest('base64url').slice(0, 32);
    const windowStart = now - (now % limit.windowMs);
    return {
      limit,
      pk: `${APPLY_LIMIT_PREFIX}${who.tenantId}#${kind}${limit.by}#${limit.per === 'job' ? who.jobId : '*'}#${digest}`,
      sk: `W#${new Date(windowStart).toISOString()}`,
      expiresAt: Math.ceil((windowStart + limit.windowMs + HOUR) / 1000),
    };
  });
}
