/**
 * The interview rules, pure: the interval an interview takes (instants, whatever the offsets or
 * zones it was given in), when two overlap, which of an interviewer's bookings conflict with a new
 * one, and the stage a candidate follows to when an interview is scheduled.
 */
import { ValidationError } from '../errors';
import type { Stage } from '../model';
import { MAX_INTERVIEW_MINUTES } from '../api/interviews';

/** A booked interval, as instants (epoch ms); `id` names the interview. */
export interface Booking {
  id: string;
  start: number;
  end: number;
}

/**
 * The interval of a request's `start` and `end` (RFC 3339, any offsets): the ISO UTC strings the
 * table keeps. A 400 when it does not end after it starts, or lasts longer than an interview may.
 */
export function intervalOf(start: string, end: string): { start: string; end: string; startMs: number; endMs: number } {
  const startMs = Date.parse(start);
  const endMs = Date.parse(end);
  if (!(endMs > startMs)) throw new ValidationError('end must be after start', { field: 'end' });
  if (endMs - startMs > MAX_INTERVIEW_MINUTES * 60_000)
    throw new ValidationError(`an interview lasts at most ${MAX_INTERVIEW_MINUTES} minutes`, { field: 'end' });
  return { start: new Date(startMs).toISOString(), end: new Date(endMs).toISOString(), startMs, endMs };
}

/** Two half-open intervals [start, end) overlap: one ending exactly when the other starts does not. */
export const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }): boolean =>
  a.start < b.end && b.start < a.end;

/** The first of an interviewer's bookings the proposed interval overlaps, other than the interview itself. */
export const firstConflict = (bookings: readonly Booking[], proposed: Booking): Booking | undefined =>
  bookings.filter((b) => b.id !== proposed.id && overlaps(b, proposed)).sort((a, b) => a.start - b.start)[0];

/** How far before a new interval's start a booking that overlaps it may start: the longest interview. */
export const LOOKBACK_MS = MAX_INTERVIEW_MINUTES * 60_000;

/** Stages before any interview: scheduling the first one moves the candidate on to interview_scheduled. */
const BEFORE_INTERVIEWS: readonly Stage[] = ['applied', 'ai_screened'];

/** The stage a candidate follows to when an interview is scheduled for them; none when they stay. */
export const stageOnSchedule = (stage: Stage): Stage | undefined => (BEFORE_INTERVIEWS.includes(stage) ? 'interview_scheduled' : undefined);

/** What a schedule, a change or a cancel moves in the candidate's interview progress (lib/store/interview-progress.ts). */
export interface ProgressChange {
  delta: { interviews: number; expected: number; scorecards: number };
  /** The interviewers whose place on the panel changed: their scorecard is counted in or out. */
  changed: string[];
}

/**
 * The progress an interview moves from `before` (undefined: not yet scheduled) to `after`: an
 * interview counts while scheduled, each interviewer on it is a scorecard expected, and a
 * scorecard counts while its writer is on the interview (`submitted`: who has one of it).
 */
export function progressOfChange(
  before: { status: string; interviewers: readonly string[] } | undefined,
  after: { status: string; interviewers: readonly string[] },
  submitted: ReadonlySet<string>,
): ProgressChange {
  const wasOn = before?.status === 'scheduled' ? before.interviewers : [];
  const isOn = after.status === 'scheduled' ? after.interviewers : [];
  const left = wasOn.filter((u) => !isOn.includes(u));
  const joined = isOn.filter((u) => !wasOn.includes(u));
  const written = (us: readonly string[]) => us.filter((u) => submitted.has(u)).length;
  return {
    delta: {
      interviews: (after.status === 'scheduled' ? 1 : 0) - (before?.status === 'scheduled' ? 1 : 0),
      expected: isOn.length - wasOn.length,
      scorecards: written(joined) - written(left),
    },
    changed: [...left, ...joined],
  };
}
