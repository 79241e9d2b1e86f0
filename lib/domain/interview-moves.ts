/**
 * The move to `interviewed` (functions/interview-moves.ts, every few minutes): for each `ended`
 * due item (lib/store/interview-due.ts), when every scheduled interview of the candidate has
 * ended, a candidate still in `interview_scheduled` moves to `interviewed`, a normal stage move
 * (counters, events, audit) with the actor `system`, unless the workspace turned
 * `auto_interview_stages` off. The move is conditional on the stage read, so two runs at once make
 * one move, and a candidate moved on by someone else is left alone. An item whose interview was
 * moved later is dropped (the move wrote the new one).
 */
import type { Interview } from '../api/interviews';
import { StaleStageError } from '../errors';
import { candidateStage, getCandidate } from '../store/candidates';
import type { DueItem } from '../store/interview-due';
import { getInterview, queryInterviewPage } from '../store/interviews';
import { getStatsItem } from '../store/stats';
import { moveCandidate } from './candidate-writes';
import { runDueItems } from './interview-due-run';
import { allEnded } from './interview-follow-up-rules';

/** The actor of the moves this run makes, as the audit log names it. */
export const FOLLOW_UP = { type: 'system', id: 'interview-follow-up', name: 'interview follow-up' } as const;

export interface MoveRun {
  due: number;
  moved: number;
}

/** Every interview of the candidate, each read consistently (the candidate's view is an index, eventually consistent). */
async function candidateInterviews(tenantId: string, candidateId: string): Promise<Interview[]> {
  const listed: Interview[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await queryInterviewPage(tenantId, { by: 'candidate', id: candidateId }, { limit: 100, startKey });
    listed.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  const read = await Promise.all(listed.map((i) => getInterview(tenantId, i.id)));
  return read.filter((i): i is Interview => i !== undefined);
}

/** The `ended` item: the move to interviewed once the candidate's last scheduled interview has ended. */
async function followEnded(item: DueItem, nowMs: number): Promise<boolean> {
  const iv = await getInterview(item.tenantId, item.interviewId);
  // A cancelled interview's item asks whether the others have all ended; a scheduled one not yet
  // ended was moved later (its new item is due then).
  if (!iv || (iv.status === 'scheduled' && Date.parse(iv.end) > nowMs)) return false;
  const [stats, cand] = await Promise.all([getStatsItem(item.tenantId), getCandidate(item.tenantId, iv.candidate_id)]);
  if (stats.item.auto_interview_stages === false || !cand || cand.erased_at) return false;
  if (candidateStage(cand) !== 'interview_scheduled') return false;
  if (!allEnded(await candidateInterviews(item.tenantId, iv.candidate_id), nowMs)) return false;
  try {
    const { after } = await moveCandidate(item.tenantId, iv.candidate_id, 'interviewed', () => new Date(nowMs).toISOString(), {
      fromStage: 'interview_scheduled',
      audit: { action: 'candidate.stage_changed', actor: FOLLOW_UP, target: { type: 'candidate', id: iv.candidate_id } },
    });
    return after !== undefined;
  } catch (err) {
    // Someone moved the candidate first (another run, or a recruiter): theirs stands.
    if (err instanceof StaleStageError) return false;
    throw err;
  }
}

/** One run at `nowMs`: every `ended` item due by then. */
export async function moveInterviewedCandidates(nowMs = Date.now()): Promise<MoveRun> {
  const { due, done } = await runDueItems('ended', nowMs, async (item) => ((await followEnded(item, nowMs)) ? 1 : 0));
  return { due, moved: done };
}
