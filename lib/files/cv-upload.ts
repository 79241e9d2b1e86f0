/**
 * An applicant's CV: a presigned POST for one file under the job's key (lib/files/keys.ts
 * applicationCvKey), handed out by the public upload route, and the check an application makes of
 * what landed there. No table item: the key names the workspace and the job, the upload id is
 * random, and an application that names it proves only that it holds the id.
 *
 * The policy pins the key and the size (1 byte to CV_MAX_BYTES) but not the content type: a form
 * without JavaScript cannot set a type field for the file a person picks. The type is decided by
 * the bytes, when the application's worker attaches the file and again by the file worker. The
 * local S3 enforces nothing of the policy, so each check is made again after the bytes land.
 */
import { applicationCvKey } from './keys';
import { CV_MAX_BYTES } from './limits';
import { presignPost } from './s3-lite';
import { bucketUrl, filesBucket, headObject } from './storage';

export interface CvUploadRequest {
  tenantId: string;
  jobId: string;
  uploadId: string;
  /** Where S3 sends the browser once the bytes landed (a form without JavaScript); exact in the policy. */
  redirect?: string;
  /** When the policy lapses (ms): never after the form token it was issued with. */
  expiresAtMs: number;
}

export async function presignCvUpload(req: CvUploadRequest, now = new Date()) {
  const key = applicationCvKey(req.tenantId, req.jobId, req.uploadId);
  const seconds = Math.max(1, Math.floor((req.expiresAtMs - now.getTime()) / 1000));
  const { url, fields } = await presignPost(
    filesBucket(),
    key,
    req.redirect ? { success_action_redirect: req.redirect } : {},
    [
      ['content-length-range', 1, CV_MAX_BYTES],
      // Any type field, or none: the bytes decide the type.
      ['starts-with', '$Content-Type', ''],
    ],
    seconds,
    now,
  );
  return { key, url, fields, expiresAt: new Date(now.getTime() + seconds * 1000).toISOString() };
}

/** The bucket's origin, which alone the careers upload page's form may post to. */
export const filesOrigin = () => new URL(bucketUrl()).origin;

export type CvLanded = 'ok' | 'missing' | 'too_large';

/** What an application finds at its CV's key: the bytes there and within the size, or why not. */
export async function landedCv(tenantId: string, jobId: string, uploadId: string): Promise<CvLanded> {
  const head = await headObject(applicationCvKey(tenantId, jobId, uploadId));
  if (!head?.size) return 'missing';
  return head.size > CV_MAX_BYTES ? 'too_large' : 'ok';
}
