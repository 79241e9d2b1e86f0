import { describe, expect, it } from 'vitest';
import { blindView, lockedBy, seesAllScorecards } from '../../lib/domain/scorecard-rules';

const [alice, bob, hm, rec, other] = ['a', 'b', 'h', 'r', 'o'];
const cards = [{ interviewer_id: alice }, { interviewer_id: bob }];
const team = { recruiter_id: rec, hiring_manager_ids: [hm] };

describe('the blind rule', () => {
  it('shows an interviewer nothing of the candidate until their own scorecard, then all of them', () => {
    expect(blindView({ role: 'interviewer', userId: 'c' }, team, cards)).toEqual([]);
    expect(blindView({ role: 'interviewer', userId: alice }, team, [cards[1]!])).toEqual([]);
    expect(blindView({ role: 'interviewer', userId: alice }, team, cards)).toEqual(cards);
  });

  it("shows admins, the requisition's hiring managers and its recruiter all; others of those roles only as interviewers", () => {
    expect(blindView({ role: 'admin' }, team, cards)).toEqual(cards);
    expect(blindView({ role: 'hiring_manager', userId: hm }, team, cards)).toEqual(cards);
    expect(blindView({ role: 'recruiter', userId: rec }, team, cards)).toEqual(cards);
    expect(blindView({ role: 'hiring_manager', userId: other }, team, cards)).toEqual([]);
    expect(blindView({ role: 'recruiter', userId: other }, team, cards)).toEqual([]);
    expect(blindView({ role: 'hiring_manager', userId: alice }, team, cards)).toEqual(cards);
  });

  it('lets every recruiter see all when the requisition names none, and no user-less viewer but an admin', () => {
    expect(seesAllScorecards({ role: 'recruiter', userId: other }, { hiring_manager_ids: [hm] })).toBe(true);
    expect(seesAllScorecards({ role: 'recruiter', userId: other }, undefined)).toBe(true);
    expect(seesAllScorecards({ role: 'interviewer' }, team)).toBe(false);
  });
});

describe('the lock', () => {
  it('holds once the candidate is placed or rejected, or the requisition closed', () => {
    expect(lockedBy('placed', 'open')).toMatch(/placed/);
    expect(lockedBy('rejected', 'open')).toMatch(/rejected/);
    expect(lockedBy('interviewed', 'closed')).toMatch(/closed/);
    expect(lockedBy('interviewed', 'filled')).toBeUndefined();
    expect(lockedBy('offer', undefined)).toBeUndefined();
  });
});
