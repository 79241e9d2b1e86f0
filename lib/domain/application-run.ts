/**
 * The worker's half of applying: one queued application (lib/applications/queue.ts) becomes a
 * person's candidate in `applied`, as POST /candidates makes one (match or create by the email),
 * with its source and its answers. What cannot ever succeed ends quietly, never as a retry:
 *  - the person is already a candidate on this job (the duplicate guard: an application again,
 *    or the same message delivered twice) adds nothing, and the applicant was answered alike;
 *  - the job closed, or the person reached their cap, after the 202.
 * Anything else throws, and the queue delivers the message again.
 *
 * The posting's screening (screening-rules.ts) is applied as the candidate is made, in the
 * create's own transaction: its state on the candidate, its `candidate.screened` record, for a
 * pass that moves on the candidate made in `ai_screened` with its history's move out of `applied`
 * by the actor `system`, and for a rejection after a delay its due item (lib/store/screening.ts).
 * One transaction, so a message delivered again finds it all done or nothing done.
 */
import type { ApplicationMessage } from '../applications/queue';
import { candidate } from '../entities/candidate';
import { auditChanges } from '../entity';
import { ConflictError } from '../errors';
import { logger } from '../logger';
import { emitMetric } from '../metrics';
import type { AuditEntry } from '../store/audit';
import { getCandidate, type CandidateRecord } from '../store/candidates';
import { claimOwner } from '../store/people';
import { getRequisitionAndPosting } from '../store/postings';
import { screeningDuePut } from '../store/screening';
import { stageMovePut } from '../store/stage-history';
import type { Posting } from '../entities/posting';
import type { ScreeningParts } from './candidate-rules';
import { insertPersonCandidate } from './candidate-writes';
import { attachApplicationCv, type CvOutcome, dropApplicationCv } from './application-cv';
import { SCREENING_ACTOR, screeningState, type Answers, type ScreeningState } from './screening-rules';

/** The audit actor of a candidate an application made: the service, on the applicant's behalf. */
export const APPLICATION_ACTOR = { type: 'system', id: 'application', name: 'Application form' } as const;

export type ApplicationOutcome = 'created' | 'duplicate' | 'closed' | 'refused';

/** The candidate record an application makes: stage `applied`, its source, its answers and consent. */
export function applicationRecord(
  m: ApplicationMessage,
  reqTitle: string | undefined,
  now: string,
  screening?: ScreeningState,
): CandidateRecord {
  return {
    id: m.applicationId,
    name: m.name,
    email: m.email,
    ...(m.phone && { phone: m.phone }),
    // A pass that moves on makes the candidate there, the move out of `applied` in its history.
    stage: screening?.action === 'move_to_ai_screened' ? 'ai_screened' : 'applied',
    req_id: m.reqId,
    req_title: reqTitle,
    source: m.source,
    application: JSON.stringify({ answers: m.answers, consent: m.consent, received_at: m.receivedAt }),
    ...(screening && { screening: JSON.stringify(screening) }),
    created_at: now,
    updated_at: now,
    stage_entered_at: now,
  } as CandidateRecord;
}

export async function runApplication(
  m: ApplicationMessage,
  now: () => string = () => new Date().toISOString(),
): Promise<ApplicationOutcome> {
  const [{ reqItem, posting }, owner] = await Promise.all([getRequisitionAndPosting(m.tenantId, m.reqId), claimOwner(m.tenantId, m.email)]);
  const outcome = await create(m, reqItem, posting, owner, now);
  // Counts only: an application's fields are personal data and never logged.
  emitMetric('ApplicationsRun', 1, undefined, { outcome });
  if (m.cvUploadId) emitMetric('ApplicationCvs', 1, undefined, { outcome: await applicationCv(m, outcome) });
  if (outcome !== 'created') logger.info('application not created', { outcome, tenantId: m.tenantId, reqId: m.reqId });
  return outcome;
}

/**
 * The CV goes to the person of this application's own candidate: made now, or by an earlier run
 * of this message that stopped before the CV (a retry finds the candidate and attaches it). An
 * application that added nothing (a duplicate of another, a closed job) keeps no CV.
 */
async function applicationCv(m: ApplicationMessage, outcome: ApplicationOutcome): Promise<CvOutcome | 'dropped'> {
  const own = outcome === 'created' || outcome === 'duplicate' ? await getCandidate(m.tenantId, m.applicationId) : undefined;
  if (typeof own?.person_id === 'string') return (await attachApplicationCv(m, own.person_id, APPLICATION_ACTOR)) ?? 'missing';
  await dropApplicationCv(m);
  return 'dropped';
}

/** The record of a screening's decision, in the posting's words (never an answer: the audit log is not erased). */
export function screenedAudit(candidateId: string, s: ScreeningState): AuditEntry {
  return {
    action: 'candidate.screened',
    actor: SCREENING_ACTOR,
    target: { type: 'candidate', id: candidateId },
    at: s.screened_at,
    changes: [
      { field: 'screening_result', after: s.result },
      { field: 'screening_action', after: s.action },
      { field: 'screening_rules', after: s.rules },
      ...(s.reject_at ? [{ field: 'reject_at', after: s.reject_at }] : []),
    ],
  };
}

function screeningParts(tenantId: string, id: string, s: ScreeningState | undefined): ScreeningParts | undefined {
  if (!s) return undefined;
  const moved = s.action === 'move_to_ai_screened';
  return {
    audits: [screenedAudit(id, s)],
    ...(moved && {
      history: stageMovePut(tenantId, {
        candidate_id: id,
        from_stage: 'applied',
        to_stage: 'ai_screened',
        at: s.screened_at,
        actor: SCREENING_ACTOR,
      }),
    }),
    ...(s.reject_at && { due: screeningDuePut(tenantId, id, s.reject_at) }),
  };
}

async function create(
  m: ApplicationMessage,
  req: Record<string, unknown> | undefined,
  posting: Posting | undefined,
  owner: string | null,
  now: () => string,
): Promise<ApplicationOutcome> {
  if (req?.status !== 'open') return 'closed';
  const at = now();
  const screening = posting && screeningState(posting, m.answers as Answers, Date.parse(at));
  const record = applicationRecord(m, req.title as string | undefined, at, screening);
  const audit: AuditEntry = {
    action: 'candidate.created',
    actor: APPLICATION_ACTOR,
    target: { type: 'candidate', id: record.id },
    changes: auditChanges(candidate, undefined, { ...record }),
  };
  try {
    await insertPersonCandidate(m.tenantId, record, owner, req, audit, screeningParts(m.tenantId, record.id, screening));
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    if (err.code === 'duplicate_candidate') return 'duplicate';
    if (err.code === 'requisition_not_open') return 'closed';
    if (err.code === 'person_limit') return 'refused';
    // The id is taken: this very message ran before (its candidate since moved to another job, or its person changed).
    if (err.code === 'conflict' && (await getCandidate(m.tenantId, m.applicationId))) return 'duplicate';
    throw err;
  }
  return 'created';
}
