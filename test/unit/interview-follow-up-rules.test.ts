/**
 * The follow-up rules: the reminder at 9:00 on the first working day after the interview, in its
 * zone (two zones, a Friday, a daylight-saving change), the candidate's interviews all ended, and
 * the missing scorecards.
 */
import { describe, expect, it } from 'vitest';
import {
  allEnded,
  dueReminders,
  earliestReminderAt,
  feedbackOverdue,
  missingScorecards,
  reminderAt,
} from '../../lib/domain/interview-follow-up-rules';

describe('reminderAt', () => {
  it('is 9:00 the next working day in the interview zone: Berlin and Los Angeles', () => {
    // Tuesday 2027-06-01, 15:00 in Berlin (13:00 UTC): Wednesday 9:00 in Berlin is 07:00 UTC.
    expect(reminderAt('2027-06-01T13:00:00.000Z', 'Europe/Berlin')).toBe('2027-06-02T07:00:00.000Z');
    // Tuesday 2027-06-01, 15:00 in Los Angeles (22:00 UTC): Wednesday 9:00 there is 16:00 UTC.
    expect(reminderAt('2027-06-01T22:00:00.000Z', 'America/Los_Angeles')).toBe('2027-06-02T16:00:00.000Z');
    // The same instant is already Wednesday in Berlin: Thursday 9:00 there.
    expect(reminderAt('2027-06-01T22:30:00.000Z', 'Europe/Berlin')).toBe('2027-06-03T07:00:00.000Z');
  });

  it('a Friday or weekend interview is reminded on Monday', () => {
    // Friday 2027-06-04 in Los Angeles; Monday 2027-06-07 9:00 PDT.
    expect(reminderAt('2027-06-04T23:00:00.000Z', 'America/Los_Angeles')).toBe('2027-06-07T16:00:00.000Z');
    expect(reminderAt('2027-06-05T10:00:00.000Z', 'Europe/Berlin')).toBe('2027-06-07T07:00:00.000Z');
    expect(reminderAt('2027-06-06T10:00:00.000Z', 'Europe/Berlin')).toBe('2027-06-07T07:00:00.000Z');
  });

  it('follows a daylight-saving change: the Monday after Berlin moves to summer time is 9:00 CEST', () => {
    // Friday 2027-03-26 (CET, +1); the clocks move on Sunday 2027-03-28; Monday 9:00 CEST is 07:00 UTC.
    expect(reminderAt('2027-03-26T15:00:00.000Z', 'Europe/Berlin')).toBe('2027-03-29T07:00:00.000Z');
    // A week before, still CET: 08:00 UTC.
    expect(reminderAt('2027-03-19T15:00:00.000Z', 'Europe/Berlin')).toBe('2027-03-22T08:00:00.000Z');
  });
});

describe('earliestReminderAt', () => {
  const ZONES = Intl.supportedValuesOf('timeZone');
  // Ends around both of Berlin's and Sydney's clock changes, on a Friday late in the UTC day and
  // early in it, and across a year-end.
  const ends = [
    '2027-03-26T15:00:00.000Z',
    '2027-03-27T23:30:00.000Z',
    '2027-04-02T11:00:00.000Z',
    '2027-10-29T22:45:00.000Z',
    '2027-10-30T13:00:00.000Z',
    '2027-06-04T00:15:00.000Z',
    '2027-12-31T20:00:00.000Z',
  ];

  it('is never later than the reminder in any zone the runtime knows, so a zone set after the booking is in time', () => {
    for (const end of ends) {
      const bound = earliestReminderAt(end);
      const late = ZONES.filter((z) => reminderAt(end, z) < bound);
      expect(late, end).toEqual([]);
    }
  });

  it('midweek, is a few hours before the first zone in use: the run comes back early by hours, not days', () => {
    // Tuesday and Wednesday ends (a Friday's bound can be days early: Etc/GMT+12 is still on Thursday).
    for (const end of ['2027-06-01T13:00:00.000Z', '2027-06-02T23:30:00.000Z', '2027-11-02T05:00:00.000Z']) {
      const first = Math.min(...ZONES.map((z) => Date.parse(reminderAt(end, z))));
      const early = first - Date.parse(earliestReminderAt(end));
      expect(early, end).toBeGreaterThanOrEqual(0);
      expect(early, end).toBeLessThanOrEqual(3 * 3_600_000);
    }
  });
});

describe("dueReminders: each interviewer at 9:00 in their own zone, else the interview's", () => {
  // Tuesday 2027-06-01, 15:00 in Berlin.
  const iv = { end: '2027-06-01T13:00:00.000Z', time_zone: 'Europe/Berlin' };
  const zones: Record<string, string> = { ny: 'America/New_York', tokyo: 'Asia/Tokyo' };
  const zoneOf = (id: string) => zones[id];

  it('sends to those whose 9:00 has come and names the next one', () => {
    // Wednesday 9:00 in Tokyo is 00:00 UTC; in Berlin 07:00 UTC; in New York 13:00 UTC.
    expect(dueReminders(iv, ['ny', 'tokyo', 'berlin'], zoneOf, Date.parse('2027-06-01T23:59:59.000Z'))).toEqual({
      due: [],
      next: '2027-06-02T00:00:00.000Z',
    });
    expect(dueReminders(iv, ['ny', 'tokyo', 'berlin'], zoneOf, Date.parse('2027-06-02T00:00:00.000Z'))).toEqual({
      due: ['tokyo'],
      next: '2027-06-02T07:00:00.000Z',
    });
    expect(dueReminders(iv, ['ny', 'berlin'], zoneOf, Date.parse('2027-06-02T07:00:00.000Z'))).toEqual({
      due: ['berlin'],
      next: '2027-06-02T13:00:00.000Z',
    });
    expect(dueReminders(iv, ['ny'], zoneOf, Date.parse('2027-06-02T13:00:00.000Z'))).toEqual({ due: ['ny'] });
  });

  it("feedback is overdue once a missing interviewer's own 9:00 passed", () => {
    const booked = { ...iv, id: 'i1', interviewers: ['ny'], status: 'scheduled' as const };
    expect(feedbackOverdue(booked, [], Date.parse('2027-06-02T07:00:00.000Z'), zoneOf)).toBe(false);
    expect(feedbackOverdue(booked, [], Date.parse('2027-06-02T13:00:00.000Z'), zoneOf)).toBe(true);
  });
});

describe('allEnded and the missing scorecards', () => {
  const at = (end: string, status: 'scheduled' | 'cancelled' = 'scheduled') => ({ end, status });
  const now = Date.parse('2027-06-01T12:00:00.000Z');

  it('counts only scheduled interviews, and needs one', () => {
    expect(allEnded([at('2027-06-01T11:00:00.000Z')], now)).toBe(true);
    expect(allEnded([at('2027-06-01T11:00:00.000Z'), at('2027-06-02T11:00:00.000Z')], now)).toBe(false);
    expect(allEnded([at('2027-06-01T11:00:00.000Z'), at('2027-06-02T11:00:00.000Z', 'cancelled')], now)).toBe(true);
    expect(allEnded([at('2027-06-01T11:00:00.000Z', 'cancelled')], now)).toBe(false);
    expect(allEnded([], now)).toBe(false);
  });

  it('names the interviewers without a scorecard; overdue once the reminder time passed', () => {
    const iv = {
      id: 'i1',
      interviewers: ['a', 'b'],
      status: 'scheduled' as const,
      end: '2027-06-01T13:00:00.000Z',
      time_zone: 'Europe/Berlin',
    };
    const cards = [
      { interview_id: 'i1', interviewer_id: 'a' },
      { interview_id: 'i2', interviewer_id: 'b' },
    ];
    expect(missingScorecards(iv, cards)).toEqual(['b']);
    expect(feedbackOverdue(iv, cards, Date.parse('2027-06-02T06:59:59.000Z'))).toBe(false);
    expect(feedbackOverdue(iv, cards, Date.parse('2027-06-02T07:00:00.000Z'))).toBe(true);
    expect(feedbackOverdue(iv, [...cards, { interview_id: 'i1', interviewer_id: 'b' }], Date.parse('2027-06-03T00:00:00.000Z'))).toBe(
      false,
    );
    expect(feedbackOverdue({ ...iv, status: 'cancelled' }, cards, Date.parse('2027-06-03T00:00:00.000Z'))).toBe(false);
  });
});
