/**
 * `feedback_overdue` on the read of one interview, for whoever reads every scorecard of its
 * requisition (lib/domain/scorecard-rules.ts seesAllScorecards): an interviewer is not told
 * whether the others have written theirs. Overdue means what the reminders run sends on: an
 * interviewer's 9:00 in their own zone (else the interview's) passed without their scorecard.
 * Before the earliest such time it costs no read beyond the requisition's team; after it, one
 * Query of the candidate's scorecards and, when one is missing, one of the members' zones.
 */
import type { Interview } from '../api/interviews';
import { getRequisition } from '../store/requisitions';
import { queryCandidateScorecards } from '../store/scorecards';
import { listUsers } from '../store/users';
import { earliestReminderAt, feedbackOverdue, missingScorecards } from './interview-follow-up-rules';
import type { Principal } from './principal';
import { seesAllScorecards } from './scorecard-rules';
import { viewerOf } from './visibility';

export async function withFeedback<I extends Interview>(
  p: Principal,
  iv: I,
  /** The requisition, when the caller has read it already (one read less). */
  read?: Record<string, unknown>,
  nowMs = Date.now(),
): Promise<I & { feedback_overdue?: boolean }> {
  const v = viewerOf(p);
  const team = v.role === 'admin' || !iv.req_id ? undefined : (read ?? (await getRequisition(p.tenantId, iv.req_id)));
  if (!seesAllScorecards(v, team)) return iv;
  const due = iv.status === 'scheduled' && Date.parse(earliestReminderAt(iv.end)) <= nowMs;
  const cards = due ? await queryCandidateScorecards(p.tenantId, iv.candidate_id) : [];
  if (!due || !missingScorecards(iv, cards).length) return { ...iv, feedback_overdue: false };
  const zones = new Map((await listUsers(p.tenantId)).map((u) => [u.id, u.time_zone]));
  return { ...iv, feedback_overdue: feedbackOverdue(iv, cards, nowMs, (id) => zones.get(id)) };
}
