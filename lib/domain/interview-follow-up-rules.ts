/**
 * The interview follow-up rules, pure: when an interviewer's feedback is due (their reminder: 9:00
 * on the first working day, Monday to Friday, after the day it ended, in their own time zone),
 * whether a candidate's interviews have all ended, and whose scorecard is missing.
 *
 * The zone is the interviewer's own (`time_zone`, set on their account) and, for one who set none,
 * the interview's `time_zone` (IANA, given when it was scheduled): the zone a panel was booked in
 * is where its interviewers work unless they say otherwise.
 */
import type { Interview } from '../api/interviews';
import { reminderAt } from '../reminder-time';

export { earliestReminderAt, REMINDER_HOUR, reminderAt, zonedInstant } from '../reminder-time';

/** An interviewer's own zone, or undefined when they set none (or are no member now). */
export type ZoneOf = (userId: string) => string | undefined;

/** When `userId`'s reminder of `iv` is due: 9:00 after it in their own zone, else the interview's. */
export const reminderOf = (iv: Pick<Interview, 'end' | 'time_zone'>, userId: string, zoneOf: ZoneOf): string =>
  reminderAt(iv.end, zoneOf(userId) ?? iv.time_zone);

/**
 * The interviewers of `missing` whose reminder is due at `nowMs`, and the earliest time one of the
 * others' is (undefined when none is left): the run sends to the first and comes back at the second.
 */
export function dueReminders(
  iv: Pick<Interview, 'end' | 'time_zone'>,
  missing: readonly string[],
  zoneOf: ZoneOf,
  nowMs: number,
): { due: string[]; next?: string } {
  const due: string[] = [];
  let next: string | undefined;
  for (const userId of missing) {
    const at = reminderOf(iv, userId, zoneOf);
    if (Date.parse(at) <= nowMs) due.push(userId);
    else if (next === undefined || at < next) next = at;
  }
  return { due, ...(next !== undefined && { next }) };
}

/** Whether every interview of a candidate still scheduled (a cancelled one does not count) has ended at `nowMs`; false when none is. */
export function allEnded(interviews: readonly Pick<Interview, 'status' | 'end'>[], nowMs: number): boolean {
  const scheduled = interviews.filter((i) => i.status === 'scheduled');
  return scheduled.length > 0 && scheduled.every((i) => Date.parse(i.end) <= nowMs);
}

/** The interviewers of an interview who have not submitted a scorecard for it. */
export const missingScorecards = (
  iv: Pick<Interview, 'id' | 'interviewers'>,
  cards: readonly { interview_id: string; interviewer_id: string }[],
): string[] => iv.interviewers.filter((u) => !cards.some((c) => c.interview_id === iv.id && c.interviewer_id === u));

/**
 * Whether an interview's feedback is overdue at `nowMs`: it is scheduled and an interviewer whose
 * reminder time has passed (in their zone, `zoneOf`, else the interview's) has not submitted their
 * scorecard.
 */
export const feedbackOverdue = (
  iv: Pick<Interview, 'id' | 'interviewers' | 'status' | 'end' | 'time_zone'>,
  cards: readonly { interview_id: string; interviewer_id: string }[],
  nowMs: number,
  zoneOf: ZoneOf = () => undefined,
): boolean => iv.status === 'scheduled' && dueReminders(iv, missingScorecards(iv, cards), zoneOf, nowMs).due.length > 0;
