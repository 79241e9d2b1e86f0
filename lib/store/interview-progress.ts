/**
 * A candidate's interview progress, kept as three counters on the candidate item so that a list
 * (the requisition's board) answers it with no read of its own: `iv_scheduled` (interviews not
 * cancelled), `iv_seats` (their interviewers: the scorecards expected) and `sc_submitted` (the
 * scorecards of those interviewers on those interviews). Each moves in the transaction that
 * changes what it counts: a schedule, a change of panel, a cancel, a first scorecard version.
 * Counts only: never an `overall`, so the blind rule has nothing to hide in them. Small on
 * purpose: the interview functions are near their bundle budget.
 */
import { tableName } from './client';
import type { Item } from './codec';
import { keys } from './table';
import { $add, type Condition, update } from './update';

export interface ProgressDelta {
  interviews: number;
  expected: number;
  scorecards: number;
}

// A candidate from before the counters were kept has none: it reads as zero.
const count = (v: unknown) => (typeof v === 'number' && v > 0 ? v : 0);

/** The progress a candidate item answers (`interview_progress`). */
export const progressOf = (item: Item) => ({
  interviews: count(item.iv_scheduled),
  scorecards_expected: count(item.iv_seats),
  scorecards: count(item.sc_submitted),
});

export const movesProgress = (d: ProgressDelta) => d.interviews !== 0 || d.expected !== 0 || d.scorecards !== 0;

/**
 * The candidate's part in a transaction: its counters moved by `d` (at least one not zero) on
 * `condition`, the write's own check of the candidate (a transaction touches an item once, so the
 * check and the counters are one action).
 */
export const progressUpdate = (tenantId: string, candidateId: string, d: ProgressDelta, condition: Condition) => ({
  Update: {
    TableName: tableName(),
    Key: keys.candidate(tenantId, candidateId),
    // update() leaves out the undefined ones.
    ...update(
      {
        iv_scheduled: d.interviews ? $add(d.interviews) : undefined,
        iv_seats: d.expected ? $add(d.expected) : undefined,
        sc_submitted: d.scorecards ? $add(d.scorecards) : undefined,
      },
      condition,
    ),
  },
});
