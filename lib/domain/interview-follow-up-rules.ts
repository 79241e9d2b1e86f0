/**
 * The interview follow-up rules, pure: when an interview's feedback is due (its reminder: 9:00 on
 * the first working day, Monday to Friday, after the day it ended, in the interview's time zone),
 * whether a candidate's interviews have all ended, and whose scorecard is missing.
 *
 * The zone is the interview's `time_zone` (IANA, given when it was scheduled): members keep no
 * zone of their own, and the zone a panel was booked in is where its interviewers work.
 */
import type { Interview } from '../api/interviews';
import { reminderAt } from '../reminder-time';

export { REMINDER_HOUR, reminderAt, zonedInstant } from '../reminder-time';

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
 * Whether an interview's feedback is overdue at `nowMs`: it is scheduled, its reminder time has
 * passed, and an interviewer has not submitted their scorecard.
 */
export const feedbackOverdue = (
  iv: Pick<Interview, 'id' | 'interviewers' | 'status' | 'end' | 'time_zone'>,
  cards: readonly { interview_id: string; interviewer_id: string }[],
  nowMs: number,
): boolean => iv.status === 'scheduled' && Date.parse(reminderAt(iv.end, iv.time_zone)) <= nowMs && missingScorecards(iv, cards).length > 0;
