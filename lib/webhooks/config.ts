/** Delivery settings. Tests and `npm start` shorten the schedule; production keeps the defaults. */
import { config, requireSettings } from '../config';

/**
 * Messages per delivery invocation: the Lambda event source's batch size (infra/stack.ts) and
 * the local poller's (dev/queue.ts).
 */
export const DELIVERY_BATCH_SIZE = 50;
/** Function timeouts (seconds), as the stack deploys them and the local runtime enforces them. */
export const FANOUT_TIMEOUT_S = 60;
export const DELIVERY_TIMEOUT_S = 30;
/** Delivery invocations at once per event source: Lambda's maxConcurrency, the local pollers. */
export const DELIVERY_MAX_CONCURRENCY = 4;

/**
 * Seconds to wait before each retry, Svix's schedule: the first attempt is immediate, then
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. Eight attempts over about 28 hours.
 */
export const DEFAULT_RETRY_SCHEDULE_S = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/**
 * SQS keeps a message invisible for at most 12 hours from when it was received; a delay is
 * capped below that, leaving time for the attempt itself. Schedule entries leave room for +20%.
 */
export const MAX_DELAY_S = 43_200 - 300;
export const MAX_SCHEDULED_S = 36_000;

export function parseSchedule(value: string | undefined): number[] {
  if (!value) return DEFAULT_RETRY_SCHEDULE_S;
  const raw = value.split(',').map((p) => p.trim());
  const parts = raw.map(Number);
  if (!raw.every((p) => /^\d{1,5}$/.test(p)) || !parts.every((n) => n <= MAX_SCHEDULED_S)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated whole seconds (0-${MAX_SCHEDULED_S}), got "${value}"`);
  }
  return parts;
}

// The schedule parsed again only when its variable changed (lib/config.ts reads settings per use).
let schedule: { value: string | undefined; parsed: number[] } | undefined;

export const webhookConfig = {
  get retryScheduleS(): number[] {
    const value = config.webhookRetrySchedule;
    if (schedule === undefined || schedule.value !== value) schedule = { value, parsed: parseSchedule(value) };
    return schedule.parsed;
  },
  /** One attempt may take at most this long (connect + response). */
  get timeoutMs(): number {
    return config.webhookTimeoutMs;
  },
  /** Only `npm start` sets this: local receivers on 127.0.0.1. The deployed stack never does. */
  get allowLoopback(): boolean {
    return config.webhookAllowLoopback;
  },
  /** An endpoint failing continuously this long is disabled. */
  get disableAfterMs(): number {
    return config.webhookDisableAfterMs;
  },
};
// Read as this module loads: a function given a malformed delivery setting stops at cold start.
void webhookConfig.retryScheduleS;
requireSettings('webhookTimeoutMs', 'webhookDisableAfterMs');

/** Total attempts per event and endpoint. */
export const maxAttempts = () => webhookConfig.retryScheduleS.length + 1;

/** A receiver's Retry-After is honoured up to this long (and never shortens our schedule). */
export const MAX_RETRY_AFTER_S = 6 * 3600;

/**
 * Seconds until the next attempt after `attempt` (1-based) failed, with ±20% jitter, or
 * undefined when it was the last.
 */
export function retryDelayS(attempt: number, schedule: readonly number[], retryAfterMs?: number, random = Math.random): number | undefined {
  const base = schedule[attempt - 1];
  if (base === undefined) return undefined;
  let delay = base * (0.8 + 0.4 * random());
  if (retryAfterMs !== undefined) delay = Math.max(delay, Math.min(retryAfterMs / 1000, MAX_RETRY_AFTER_S));
  return Math.min(Math.round(delay), MAX_DELAY_S);
}
