/**
 * `feedback_overdue` on the read of one interview, for whoever reads every scorecard of its
 * requisition (lib/domain/scorecard-rules.ts seesAllScorecards): an interviewer is not told
 * whether the others have written theirs. Before the reminder time it costs no read beyond the
 * requisition's team; after it, one Query of the candidate's scorecards.
 */
import type { Interview } from '../api/interviews';
import { getRequisition } from '../store/requisitions';
import { queryCandidateScorecards } from '../store/scorecards';
import { feedbackOverdue, reminderAt } from './interview-follow-up-rules';
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
  const due = iv.status === 'scheduled' && Date.parse(reminderAt(iv.end, iv.time_zone)) <= nowMs;
  const cards = due ? await queryCandidateScorecards(p.tenantId, iv.candidate_id) : [];
  return { ...iv, feedback_overdue: due && feedbackOverdue(iv, cards, nowMs) };
}
