/** Which events a replay sends again, from the outcomes of an endpoint's attempts. */
import { EVENT_TYPES, TEST_EVENT } from '../model';
import type { AttemptOutcome } from '../store/webhook-attempts';

/** A retry due this long before the job started and still not logged was dropped (e.g. while disabled). */
export const LOST_RETRY_MS = 5 * 60_000;

/**
 * A subscribable type that is not among `subscribed` (an endpoint's events now). The test and
 * endpoint_disabled events are no one's to choose, so never unsubscribed.
 */
export const notSubscribed = (subscribed: readonly string[], type: string) =>
  (EVENT_TYPES as readonly string[]).includes(type) && !subscribed.includes(type);

/**
 * Events that never reached the endpoint, oldest first: no accepted attempt, and no retry still
 * scheduled (that retry delivers it; replaying too would send it twice). A retry that was due
 * well before `asOfMs` and never happened counts as missed. Test events are left out, and so are
 * the types the endpoint is no longer subscribed to (`subscribed`, its events now): a resend of one
 * must say so (`force`), a replay never sends one.
 */
export function missedEvents(
  outcomes: AttemptOutcome[],
  asOfMs: number,
  subscribed: readonly string[] = EVENT_TYPES,
): { id: string; type: string }[] {
  const state = new Map<string, { type: string; delivered: boolean; pending: boolean }>();
  for (const o of outcomes) {
    const s = state.get(o.event_id) ?? { type: o.event_type, delivered: false, pending: false };
    s.delivered ||= o.success;
    s.pending = !o.success && o.next_attempt_at !== null && !o.dead_lettered && Date.parse(o.next_attempt_at) > asOfMs - LOST_RETRY_MS;
    state.set(o.event_id, s);
  }
  return [...state]
    .filter(([, s]) => !s.delivered && !s.pending && s.type !== TEST_EVENT && !notSubscribed(subscribed, s.type))
    .map(([id, s]) => ({ id, type: s.type }));
}
