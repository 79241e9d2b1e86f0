/**
 * The presigned POST of an upload: the browser (or an integrator) sends the bytes straight to the
 * bucket, so no Lambda payload limit applies. Its policy pins the exact key (ids only,
 * lib/files/keys.ts), the exact content type and the exact size declared (`content-length-range`
 * from size to size), and it is valid for UPLOAD_VALID_SECONDS. S3 refuses anything else; the
 * local S3 does not, which is why the landed object is checked again (lib/files/verify.ts).
 */
import { uploadKey } from './keys';
import { type AllowedContentType, isAllowedContentType, MAX_UPLOAD_BYTES, UPLOAD_VALID_SECONDS } from './limits';
import { presignPost } from './s3-lite';
import { filesBucket } from './storage';

export interface UploadRequest {
  tenantId: string;
  uploadId: string;
  contentType: AllowedContentType;
  /** Bytes, as declared by the client: 1 to MAX_UPLOAD_BYTES. */
  size: number;
}

export interface PresignedUpload {
  key: string;
  /** Where to POST the multipart form (the bucket's URL). */
  url: string;
  /** Every form field, in this order, before the `file` field. */
  fields: Record<string, string>;
  expiresAt: string;
}

export async function presignUpload(req: UploadRequest, now = new Date()): Promise<PresignedUpload> {
  if (!isAllowedContentType(req.contentType)) throw new Error('content type not allowed');
  if (!Number.isInteger(req.size) || req.size < 1 || req.size > MAX_UPLOAD_BYTES) throw new Error('size out of range');
  const key = uploadKey(req.tenantId, req.uploadId);
  // Each field is also an exact-match condition of the policy, as are the bucket and the key.
  const { url, fields } = await presignPost(
    filesBucket(),
    key,
    { 'Content-Type': req.contentType },
    [['content-length-range', req.size, req.size]],
    UPLOAD_VALID_SECONDS,
    now,
  );
  return { key, url, fields, expiresAt: new Date(now.getTime() + UPLOAD_VALID_SECONDS * 1000).toISOString() };
}
