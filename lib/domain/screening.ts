/**
 * Screening's decisions after the application (the worker makes the first, application-run.ts):
 * the scheduled run that rejects once a screening's delay has passed, and the one action with
 * which a recruiter overturns a decision. Both write a normal stage move (history, counters,
 * events, the activity feed) and the candidate's screening state, audited.
 */
import type { Screening } from '../api/screening';
import { ConflictError, NotFoundError, StaleStageError } from '../errors';
import { nowIso } from '../ids';
import { logger } from '../logger';
import { getCandidate } from '../store/candidates';
import type { Item } from '../store/codec';
import { dueScreeningRejections, screeningAnswer, screeningDueDone, screeningOf, writeScreening } from '../store/screening';
import { moveCandidate } from './candidate-writes';
import { actorOf, auditBy, type Principal } from './principal';
import { decideOverturn, SCREENING_ACTOR, SCREENING_REJECTION, type ScreeningState } from './screening-rules';
import { viewerOf } from './visibility';

/** A run's page of due rejections; the next run (a minute later) takes the rest. */
export const SCREENING_RUN_LIMIT = 200;

const reasonIdOf = (item: Item) => (item.rejection as { reason_id?: string } | undefined)?.reason_id;

/**
 * One due rejection: the candidate still in `applied` (no person moved them) with this very
 * rejection pending is rejected with the reason `screening` by the actor `system`; otherwise the
 * rejection is moot. Either way the screening no longer holds it pending and its due item goes.
 */
async function rejectOne(tenantId: string, candidateId: string, dueAt: string, sk: string, now: () => string): Promise<boolean> {
  const item = await getCandidate(tenantId, candidateId);
  const s = screeningOf(item);
  if (!item || item.erased_at || !s || s.reject_at !== dueAt) {
    await screeningDueDone(sk);
    return false;
  }
  let rejected = item.stage === 'rejected' && reasonIdOf(item) === SCREENING_REJECTION.reason_id;
  if (item.stage === 'applied') {
    try {
      await moveCandidate(tenantId, candidateId, 'rejected', now, {
        actor: SCREENING_ACTOR,
        fromStage: 'applied',
        rejection: SCREENING_REJECTION,
        audit: { action: 'candidate.stage_changed', actor: SCREENING_ACTOR, target: { type: 'candidate', id: candidateId } },
        auditChanges: [
          { field: 'screening_result', after: s.result },
          { field: 'screening_rules', after: s.rules },
        ],
      });
      rejected = true;
    } catch (err) {
      if (!(err instanceof StaleStageError)) throw err;
    }
  }
  const { reject_at: _pending, ...rest } = s;
  const next: ScreeningState = { ...rest, ...(rejected && { rejected_at: now() }) };
  // A screening changed meanwhile (an overturn) took the due item with it.
  if (!(await writeScreening(tenantId, candidateId, item.screening as string, next, { dueAt }))) await screeningDueDone(sk);
  return rejected;
}

/** The scheduled run: every screening rejection due now. Counts only in its answer and logs. */
export async function rejectDueScreenings(now: () => string = nowIso): Promise<{ due: number; rejected: number }> {
  const due = await dueScreeningRejections(now(), SCREENING_RUN_LIMIT);
  let rejected = 0;
  for (const d of due) if (await rejectOne(d.tenantId, d.candidateId, d.dueAt, d.sk, now)) rejected++;
  if (due.length) logger.info('screening rejections run', { due: due.length, rejected });
  return { due: due.length, rejected };
}

/**
 * Overturn a screening's decision in one action: cancel its pending rejection, take a candidate
 * screening rejected back to `applied`, or clear its review flag; audited as
 * `candidate.screening_overturned` by the caller. Anything else is a 409 nothing_to_overturn.
 */
export async function overturnScreening(p: Principal, id: string, now: () => string = nowIso): Promise<Screening> {
  const item = await getCandidate(p.tenantId, id);
  if (!item || viewerOf(p).role === 'interviewer') throw new NotFoundError('candidate');
  const s = screeningOf(item);
  const decided = decideOverturn(s, String(item.stage), reasonIdOf(item));
  if (decided.kind === 'nothing' || !s) {
    throw new ConflictError(decided.kind === 'nothing' ? decided.why : 'nothing to overturn', { code: 'nothing_to_overturn' });
  }
  const target = { type: 'candidate', id } as const;
  if (decided.kind === 'unreject') {
    await moveCandidate(p.tenantId, id, 'applied', now, {
      actor: actorOf(p),
      fromStage: 'rejected',
      audit: auditBy(p, 'candidate.stage_changed', target),
      auditChanges: [{ field: 'screening_overturned', after: true }],
    });
  }
  const { reject_at, ...rest } = s;
  const next: ScreeningState = { ...rest, flagged: false, overturned_at: now() };
  const audit = auditBy(p, 'candidate.screening_overturned', target, [
    { field: 'overturned', after: decided.kind },
    { field: 'screening_rules', after: s.rules },
  ]);
  const written = await writeScreening(p.tenantId, id, item.screening as string, next, { dueAt: reject_at, audits: [audit] });
  if (!written) throw new ConflictError("the candidate's screening changed meanwhile; read it again and try again");
  return screeningAnswer(next)!;
}
