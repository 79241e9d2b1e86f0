/**
 * The interview follow-up rules, pure: when an interview's feedback is due (its reminder: 9:00 on
 * the first working day, Monday to Friday, after the day it ended, in the interview's time zone),
 * whether a candidate's interviews have all ended, and whose scorecard is missing.
 *
 * The zone is the interview's `time_zone` (IANA, given when it was scheduled): members keep no
 * zone of their own, and the zone a panel was booked in is where its interviewers work.
 */
import type { Interview } from '../api/interviews';

/** The hour of the day, in the interview's zone, a reminder is sent. */
export const REMINDER_HOUR = 9;

const parts = (timeZone: string, ms: number) => {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const got = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return {
    y: Number(got.year),
    m: Number(got.month),
    d: Number(got.day),
    h: Number(got.hour),
    min: Number(got.minute),
    s: Number(got.second),
  };
};

/** How far the zone's wall clock is ahead of UTC at the instant `ms`. */
function offsetAt(timeZone: string, ms: number): number {
  const p = parts(timeZone, ms);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(ms / 1000) * 1000;
}

/** The instant the zone's wall clock reads y-m-d h:00 (a daylight-saving change is taken as the offset after it). */
export function zonedInstant(timeZone: string, y: number, m: number, d: number, h: number): number {
  const wall = Date.UTC(y, m - 1, d, h);
  const first = wall - offsetAt(timeZone, wall);
  return wall - offsetAt(timeZone, first);
}

const zoneOrUtc = (timeZone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
};

/** When the reminder of an interview that ends at `end` in `timeZone` is due (ISO UTC). */
export function reminderAt(end: string, timeZone: string): string {
  const zone = zoneOrUtc(timeZone);
  const local = parts(zone, Date.parse(end));
  const day = new Date(Date.UTC(local.y, local.m - 1, local.d + 1));
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return new Date(zonedInstant(zone, day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), REMINDER_HOUR)).toISOString();
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
 * Whether an interview's feedback is overdue at `nowMs`: it is scheduled, its reminder time has
 * passed, and an interviewer has not submitted their scorecard.
 */
export const feedbackOverdue = (
  iv: Pick<Interview, 'id' | 'interviewers' | 'status' | 'end' | 'time_zone'>,
  cards: readonly { interview_id: string; interviewer_id: string }[],
  nowMs: number,
): boolean => iv.status === 'scheduled' && Date.parse(reminderAt(iv.end, iv.time_zone)) <= nowMs && missingScorecards(iv, cards).length > 0;
