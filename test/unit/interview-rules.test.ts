/**
 * The interview rules, pure: intervals are instants whatever offsets or zones they were written in
 * (across a daylight-saving change too), the overlap rule is half-open, and scheduling moves only a
 * candidate not yet interviewing.
 */
import { describe, expect, it } from 'vitest';
import { firstConflict, intervalOf, overlaps, stageOnSchedule, type Booking } from '../../lib/domain/interview-rules';
import { ValidationError } from '../../lib/errors';

const booking = (id: string, start: string, end: string): Booking => {
  const i = intervalOf(start, end);
  return { id, start: i.startMs, end: i.endMs };
};

describe('intervalOf', () => {
  it('keeps the instant and stores it as UTC, whatever the offset', () => {
    expect(intervalOf('2026-06-01T10:00:00+02:00', '2026-06-01T11:00:00+02:00')).toMatchObject({
      start: '2026-06-01T08:00:00.000Z',
      end: '2026-06-01T09:00:00.000Z',
    });
  });
  it('refuses an end not after the start and an interview over 8 hours, naming end', () => {
    for (const [s, e] of [
      ['2026-06-01T10:00:00Z', '2026-06-01T10:00:00Z'],
      ['2026-06-01T10:00:00Z', '2026-06-01T09:00:00Z'],
      ['2026-06-01T08:00:00Z', '2026-06-01T16:00:01Z'],
    ]) {
      try {
        intervalOf(s!, e!);
        throw new Error('accepted');
      } catch (err) {
        expect(err).toBeInstanceOf(ValidationError);
        expect((err as ValidationError).field).toBe('end');
      }
    }
  });
});

describe('overlaps and conflicts', () => {
  it('is half-open: back to back is no conflict, one minute in is', () => {
    const a = booking('a', '2026-06-01T09:00:00Z', '2026-06-01T10:00:00Z');
    expect(overlaps(a, booking('b', '2026-06-01T10:00:00Z', '2026-06-01T11:00:00Z'))).toBe(false);
    expect(overlaps(a, booking('b', '2026-06-01T09:59:00Z', '2026-06-01T11:00:00Z'))).toBe(true);
    expect(overlaps(a, booking('b', '2026-06-01T09:15:00Z', '2026-06-01T09:30:00Z'))).toBe(true);
  });

  it('compares instants across time zones: 10:00 in Berlin is 09:00 in London in summer', () => {
    const berlin = booking('berlin', '2026-07-01T10:00:00+02:00', '2026-07-01T11:00:00+02:00');
    const london = booking('london', '2026-07-01T09:30:00+01:00', '2026-07-01T10:30:00+01:00');
    const newYork = booking('ny', '2026-07-01T04:00:00-04:00', '2026-07-01T05:00:00-04:00');
    expect(overlaps(berlin, london)).toBe(true);
    // 04:00 in New York (EDT) is 10:00 in Berlin (CEST): the same hour.
    expect(overlaps(berlin, newYork)).toBe(true);
    expect(overlaps(london, booking('tokyo', '2026-07-01T18:30:00+09:00', '2026-07-01T19:00:00+09:00'))).toBe(false);
  });

  it('holds across the night Europe moves its clocks: 01:30 CET and 03:30 CEST are one hour apart', () => {
    // 2026-03-29: Berlin goes from 02:00 CET (+01:00) straight to 03:00 CEST (+02:00).
    const beforeChange = booking('before', '2026-03-29T01:30:00+01:00', '2026-03-29T03:30:00+02:00');
    expect(beforeChange.end - beforeChange.start).toBe(60 * 60_000);
    expect(overlaps(beforeChange, booking('after', '2026-03-29T03:00:00+02:00', '2026-03-29T04:00:00+02:00'))).toBe(true);
    expect(overlaps(beforeChange, booking('later', '2026-03-29T03:30:00+02:00', '2026-03-29T04:00:00+02:00'))).toBe(false);
    // The autumn change: 02:30 happens twice in Berlin; the offsets tell the two apart.
    const firstTwoThirty = booking('first', '2026-10-25T02:30:00+02:00', '2026-10-25T02:45:00+02:00');
    const secondTwoThirty = booking('second', '2026-10-25T02:30:00+01:00', '2026-10-25T02:45:00+01:00');
    expect(overlaps(firstTwoThirty, secondTwoThirty)).toBe(false);
    expect(secondTwoThirty.start - firstTwoThirty.start).toBe(60 * 60_000);
  });

  it('names the earliest booking that overlaps, never the interview being moved itself', () => {
    const bookings = [
      booking('late', '2026-06-01T11:00:00Z', '2026-06-01T12:00:00Z'),
      booking('early', '2026-06-01T09:00:00Z', '2026-06-01T10:30:00Z'),
      booking('self', '2026-06-01T10:00:00Z', '2026-06-01T11:00:00Z'),
    ];
    expect(firstConflict(bookings, booking('self', '2026-06-01T10:00:00Z', '2026-06-01T11:30:00Z'))?.id).toBe('early');
    expect(firstConflict(bookings, booking('self', '2026-06-01T12:00:00Z', '2026-06-01T13:00:00Z'))).toBeUndefined();
  });
});

describe('stageOnSchedule', () => {
  it('moves a candidate not yet interviewing to interview_scheduled, and no one else', () => {
    expect(stageOnSchedule('applied')).toBe('interview_scheduled');
    expect(stageOnSchedule('ai_screened')).toBe('interview_scheduled');
    for (const s of ['interview_scheduled', 'interviewed', 'offer_sent', 'placed', 'rejected'] as const)
      expect(stageOnSchedule(s)).toBeUndefined();
  });
});
