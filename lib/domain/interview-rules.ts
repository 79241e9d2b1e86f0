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
