/**
 * The synchronous half of applying (POST /api/boards/{slug}/jobs/{id}/applications): read the
 * public posting, check the application against it, and queue it. The queue send is the one
 * write; the worker (application-run.ts) makes the person and the candidate.
 */
import type { ApplicationBody, ApplyParams } from '../api/applications';
import { queueApplication } from '../applications/queue';
import { NotFoundError, ValidationError } from '../errors';
import { newId, nowIso } from '../ids';
import { emitMetric } from '../metrics';
import { publicPosting } from './postings';
import { validateAnswers } from './screening-rules';

/** The source an application without one gets: the careers page's form. */
export const CAREERS_SOURCE = 'careers';

/** Why a submission was turned away: answered as a success, counted, never queued. */
export type Refusal = 'honeypot';

/** Counted by reason (metric ApplicationsRefused); nothing of the post is logged. */
function refused(reason: Refusal): void {
  emitMetric('ApplicationsRefused', 1, undefined, { reason });
}

export async function acceptApplication(params: ApplyParams, body: ApplicationBody): Promise<void> {
  const found = await publicPosting(params.slug, params.id);
  // An unknown slug, another workspace's job, an unpublished posting, a requisition not open: one answer.
  if (!found) throw new NotFoundError('job');
  const { answers, failures } = validateAnswers(found.posting, body.answers);
  const first = failures[0];
  if (first) throw new ValidationError(first.error, { field: first.field });
  // After the checks, so a bot's answer is exactly what the same post without the trap would get.
  if (body.website?.trim()) return refused('honeypot');
  await queueApplication({
    tenantId: found.tenantId,
    reqId: params.id,
    applicationId: newId(),
    receivedAt: nowIso(),
    name: body.name,
    email: body.email,
    ...(body.phone && { phone: body.phone }),
    answers,
    consent: body.consent,
    source: body.source ?? CAREERS_SOURCE,
  });
}
