/**
 * The synchronous half of applying (POST /api/boards/{slug}/jobs/{id}/applications): read the
 * public posting, check the application against it, and queue it. The queue send is the one
 * write; the worker (application-run.ts) makes the person and the candidate.
 */
import type { ApplicationBody, ApplyParams } from '../api/applications';
import { queueApplication } from '../applications/queue';
import { config } from '../config';
import { NotFoundError, ValidationError } from '../errors';
import { newId, nowIso } from '../ids';
import { emitMetric } from '../metrics';
import { takeSlot } from '../store/application-limits';
import { limitCounters, limitReason } from './application-limits';
import { checkFormToken, type FormTokenCheck } from './form-token';
import { publicPosting } from './postings';
import { validateAnswers } from './screening-rules';
import { landedCv } from '../files/cv-upload';
import type { Posting } from '../entities/posting';

/** The source an application without one gets: the careers page's form. */
export const CAREERS_SOURCE = 'careers';

/** Why a submission was turned away: answered as a success, counted, never queued. */
export type Refusal = 'honeypot' | Exclude<FormTokenCheck, 'ok'> | ReturnType<typeof limitReason>;

/** Counted by reason (metric ApplicationsRefused); nothing of the post is logged. */
function refused(reason: Refusal): void {
  emitMetric('ApplicationsRefused', 1, undefined, { reason });
}

/**
 * The first limit the sender is over, if any. Every counter takes its slot at once: one round of
 * writes, and a sender over one limit still counts against the others.
 */
async function overLimit(tenantId: string, jobId: string, address: string, email: string, now: number) {
  if (config.rateLimitsOff) return undefined;
  const counters = limitCounters(config.formTokenSecret, { tenantId, jobId, address, email }, now);
  const taken = await Promise.all(counters.map(takeSlot));
  const over = counters.find((_, i) => !taken[i]);
  return over && limitReason(over.limit);
}

/**
 * The posting's CV rule, and the CV the application names: uploaded for this job (its key is
 * under the job), there, within the size. An upload already taken by an application is gone.
 */
async function checkCv(tenantId: string, jobId: string, posting: Posting, uploadId: string | undefined): Promise<void> {
  if (!uploadId) {
    if (posting.cv === 'required') {
      throw new ValidationError(
        'a CV is required: upload it (POST /api/boards/{slug}/jobs/{id}/uploads) and send its upload_id as cv_upload_id',
        {
          field: 'cv',
        },
      );
    }
    return;
  }
  if (posting.cv === 'off') throw new ValidationError('this job asks for no CV: leave out cv_upload_id', { field: 'cv' });
  const landed = await landedCv(tenantId, jobId, uploadId);
  if (landed === 'too_large') throw new ValidationError('the CV is larger than 10 MB', { field: 'cv' });
  if (landed === 'missing') {
    throw new ValidationError('no CV was uploaded for this job under cv_upload_id (or it was already used, or expired): upload it again', {
      field: 'cv',
    });
  }
}

/** `address`: where the post came from (lib/edge.ts clientAddress), for the limits alone. */
export async function acceptApplication(params: ApplyParams, body: ApplicationBody, address: string): Promise<void> {
  const found = await publicPosting(params.slug, params.id);
  // An unknown slug, another workspace's job, an unpublished posting, a requisition not open: one answer.
  if (!found) throw new NotFoundError('job');
  const { answers, failures } = validateAnswers(found.posting, body.answers);
  const first = failures[0];
  if (first) throw new ValidationError(first.error, { field: first.field });
  await checkCv(found.tenantId, params.id, found.posting, body.cv_upload_id);
  // After the checks, so a bot's answer is exactly what the same post without the trap would get.
  if (body.website?.trim()) return refused('honeypot');
  const now = Date.now();
  const token = checkFormToken(config.formTokenSecret, params.slug, params.id, body.form_token, now);
  if (token !== 'ok') return refused(token);
  const limited = await overLimit(found.tenantId, params.id, address, body.email, now);
  if (limited) return refused(limited);
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
    ...(body.cv_upload_id && { cvUploadId: body.cv_upload_id }),
  });
}
