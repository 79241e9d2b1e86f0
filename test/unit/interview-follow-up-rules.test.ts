/**
 * The follow-up rules: the reminder at 9:00 on the first working day after the interview, in its
 * zone (two zones, a Friday, a daylight-saving change), the candidate's interviews all ended, and
 * the missing scorecards.
 */
import { describe, expect, it } from 'vitest';
import { allEnded, feedbackOverdue, missingScorecards, reminderAt } from '../../lib/domain/interview-follow-up-rules';

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
