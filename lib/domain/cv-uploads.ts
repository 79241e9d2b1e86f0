/**
 * An applicant's CV upload (POST /api/boards/{slug}/jobs/{id}/uploads): a presigned POST for one
 * file under the job (lib/files/cv-upload.ts), for a client that read the job (its form token),
 * within the per-address limits. Nothing is written but the limits' counters: the key is the
 * record, and the bucket's lifecycle rule deletes what no application took.
 */
import type { ApplyParams, CvUploadBody } from '../api/applications';
import { config } from '../config';
import { NotFoundError, TooManyRequestsError, ValidationError } from '../errors';
import { presignCvUpload } from '../files/cv-upload';
import { CV_CONTENT_TYPES, CV_MAX_BYTES } from '../files/limits';
import { newId } from '../ids';
import { takeSlot } from '../store/application-limits';
import { CV_UPLOAD_LIMITS, limitCounters } from './application-limits';
import { checkFormToken, FORM_TOKEN_TTL_MS, formTokenIssuedAt } from './form-token';
import { publicPosting } from './postings';

/** A policy is signed for at most this long: choosing a file takes minutes, and a leaked one soon lapses. */
export const CV_UPLOAD_VALID_MS = 3_600_000;

/**
 * `redirect`: for a form without JavaScript, where S3 sends the browser once the bytes are in
 * (the job page, naming the upload); pinned in the policy.
 */
export async function issueCvUpload(
  params: ApplyParams,
  body: CvUploadBody,
  address: string,
  redirect?: (uploadId: string) => string,
  now = Date.now(),
) {
  const found = await publicPosting(params.slug, params.id);
  if (!found) throw new NotFoundError('job');
  if (found.posting.cv === 'off') throw new ValidationError('this job asks for no CV', { field: 'cv' });
  // Unlike an application's, a CV upload asked for at once is fine: the minimum time guards the post.
  const token = checkFormToken(config.formTokenSecret, params.slug, params.id, body.form_token, now);
  if (token === 'bad_token' || token === 'expired_token') {
    throw new ValidationError('form_token is not valid for this job, or has expired: read the job again', { field: 'form_token' });
  }
  if (!config.rateLimitsOff) {
    const counters = limitCounters(
      config.formTokenSecret,
      { tenantId: found.tenantId, jobId: params.id, address },
      now,
      CV_UPLOAD_LIMITS,
      'cv#',
    );
    const taken = await Promise.all(counters.map(takeSlot));
    if (taken.includes(false)) {
      throw new TooManyRequestsError('too many CV uploads from this address; try again later', 3_600_000 - (now % 3_600_000), {
        code: 'rate_limited',
      });
    }
  }
  const uploadId = newId();
  const expiresAtMs = Math.min(formTokenIssuedAt(body.form_token) + FORM_TOKEN_TTL_MS, now + CV_UPLOAD_VALID_MS);
  const up = await presignCvUpload(
    { tenantId: found.tenantId, jobId: params.id, uploadId, expiresAtMs, ...(redirect && { redirect: redirect(uploadId) }) },
    new Date(now),
  );
  return {
    upload_id: uploadId,
    url: up.url,
    fields: up.fields,
    expires_at: up.expiresAt,
    max_bytes: CV_MAX_BYTES,
    content_types: [...CV_CONTENT_TYPES],
  };
}
