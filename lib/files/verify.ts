/**
 * What is checked once an upload has landed, before anything else happens to it. A presigned
 * POST's policy pins the key, the size range and the content type, and S3 enforces it; the local
 * S3 (s3rver) enforces none of it (a tampered signature, another key, another content type and a
 * body past the size range are all accepted). So the service never trusts the policy alone: it
 * reads the landed object's size and stored type (HeadObject) and compares them with what it
 * issued, and the worker then decides the type from the bytes (lib/files/sniff.ts). Pure, and
 * light enough for a route handler.
 */
import { isIssuedUploadKey } from './keys';
import { type AllowedContentType, allowedType, type FileRefusalCode, MAX_UPLOAD_BYTES } from './limits';

/** What the service issued the upload for (kept with the upload id). */
export interface IssuedUpload {
  tenantId: string;
  uploadId: string;
  key: string;
  size: number;
  contentType: AllowedContentType;
}

/** What HeadObject says of the landed object; undefined fields are what S3 did not answer. */
export interface LandedObject {
  size: number | undefined;
  contentType: string | undefined;
}

export type Check = { ok: true } | { ok: false; code: FileRefusalCode | 'upload_not_found'; reason: string };

/** The landed object is the one issued: same key, same size, same declared type, within the limits. */
export function checkLanded(issued: IssuedUpload, landed: LandedObject | undefined): Check {
  if (!isIssuedUploadKey(issued.key, issued.tenantId, issued.uploadId)) {
    return { ok: false, code: 'upload_not_found', reason: 'the key is not the one issued for this upload' };
  }
  if (!landed) return { ok: false, code: 'upload_not_found', reason: 'nothing was uploaded' };
  if (landed.size === undefined || landed.size === 0) return { ok: false, code: 'file_empty', reason: 'the file is empty' };
  if (landed.size > MAX_UPLOAD_BYTES) return { ok: false, code: 'file_too_large', reason: 'the file is larger than allowed' };
  if (landed.size !== issued.size) return { ok: false, code: 'file_size_mismatch', reason: 'the file is not the size declared' };
  if (!landed.contentType || allowedType(landed.contentType)?.content_type !== issued.contentType) {
    return { ok: false, code: 'file_type_mismatch', reason: 'the file was sent with another content type than declared' };
  }
  return { ok: true };
}

/** The bytes prove the declared type. */
export function checkDetected(issued: Pick<IssuedUpload, 'contentType'>, detected: string): Check {
  return detected === issued.contentType
    ? { ok: true }
    : { ok: false, code: 'file_type_mismatch', reason: 'the bytes are another type than declared' };
}
