/**
 * The worker's half of applying: one queued application (lib/applications/queue.ts) becomes a
 * person's candidate in `applied`, as POST /candidates makes one (match or create by the email),
 * with its source and its answers. What cannot ever succeed ends quietly, never as a retry:
 *  - the person is already a candidate on this job (the duplicate guard: an application again,
 *    or the same message delivered twice) adds nothing, and the applicant was answered alike;
 *  - the job closed, or the person reached their cap, after the 202.
 * Anything else throws, and the queue delivers the message again.
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
import { getRequisition } from '../store/requisitions';
import { insertPersonCandidate } from './candidate-writes';

/** The audit actor of a candidate an application made: the service, on the applicant's behalf. */
export const APPLICATION_ACTOR = { type: 'system', id: 'application', name: 'Application form' } as const;

export type ApplicationOutcome = 'created' | 'duplicate' | 'closed' | 'refused';

/** The candidate record an application makes: stage `applied`, its source, its answers and consent. */
export function applicationRecord(m: ApplicationMessage, reqTitle: string | undefined, now: string): CandidateRecord {
  return {
    id: m.applicationId,
    name: m.name,
    email: m.email,
    ...(m.phone && { phone: m.phone }),
    stage: 'applied',
    req_id: m.reqId,
    req_title: reqTitle,
    source: m.source,
    application: JSON.stringify({ answers: m.answers, consent: m.consent, received_at: m.receivedAt }),
    created_at: now,
    updated_at: now,
    stage_entered_at: now,
  } as CandidateRecord;
}

export async function runApplication(
  m: ApplicationMessage,
  now: () => string = () => new Date().toISOString(),
): Promise<ApplicationOutcome> {
  const [req, owner] = await Promise.all([getRequisition(m.tenantId, m.reqId), claimOwner(m.tenantId, m.email)]);
  const outcome = await create(m, req, owner, now());
  // Counts only: an application's fields are personal data and never logged.
  emitMetric('ApplicationsRun', 1, undefined, { outcome });
  if (outcome !== 'created') logger.info('application not created', { outcome, tenantId: m.tenantId, reqId: m.reqId });
  return outcome;
}

async function create(
  m: ApplicationMessage,
  req: Awaited<ReturnType<typeof getRequisition>>,
  owner: string | null,
  now: string,
): Promise<ApplicationOutcome> {
  if (req?.status !== 'open') return 'closed';
  const record = applicationRecord(m, req.title as string | undefined, now);
  const audit: AuditEntry = {
    action: 'candidate.created',
    actor: APPLICATION_ACTOR,
    target: { type: 'candidate', id: record.id },
    changes: auditChanges(candidate, undefined, { ...record }),
  };
  try {
    await insertPersonCandidate(m.tenantId, record, owner, req, audit);
    return 'created';
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    if (err.code === 'duplicate_candidate') return 'duplicate';
    if (err.code === 'requisition_not_open') return 'closed';
    if (err.code === 'person_limit') return 'refused';
    // The id is taken: this very message ran before (its candidate since moved to another job, or its person changed).
    if (err.code === 'conflict' && (await getCandidate(m.tenantId, m.applicationId))) return 'duplicate';
    throw err;
  }
}
