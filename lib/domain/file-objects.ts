/**
 * A person's files where the bucket is involved: issue an upload, attach it (the landed object
 * checked against what was issued, its bytes hashed, then handed to the worker by the copy to its
 * file key), sign a download link, delete. The byte check and the text are the worker's
 * (lib/domain/file-processing.ts): nothing here loads a parser.
 */
import type { AttachFileBody, CreateUploadBody, File } from '../api/files';
import type { FileRecord } from '../entities/file';
import { AppError, ConflictError, NotFoundError } from '../errors';
import { sanitiseFilename } from '../files/filename';
import { fileKey, uploadKey } from '../files/keys';
import { type AllowedContentType, DOWNLOAD_VALID_SECONDS, type FileRefusalCode } from '../files/limits';
import { presignUpload } from '../files/presign';
import { deleteEveryVersion, downloadUrl, hashObject, headObject, promoteUpload } from '../files/storage';
import { checkLanded } from '../files/verify';
import { newId, nowIso } from '../ids';
import * as store from '../store/files';
import { personCheck, requirePerson } from './file-person';
import { fileAnswer, requireFile, requireServable } from './files';
import { auditBy, type Principal } from './principal';
import { uploadNotFound } from './upload-status';

const actorRef = (p: Principal) =>
  p.kind === 'token' ? { type: 'token' as const, id: p.tokenId } : { type: 'user' as const, id: p.userId };

export async function createUpload(p: Principal, body: CreateUploadBody) {
  const uploadId = newId();
  const contentType = body.content_type as AllowedContentType;
  const up = await presignUpload({ tenantId: p.tenantId, uploadId, contentType, size: body.size });
  const by = actorRef(p);
  await store.putUpload(p.tenantId, {
    upload_id: uploadId,
    key: up.key,
    size: body.size,
    content_type: contentType,
    filename: sanitiseFilename(body.filename),
    uploaded_by_type: by.type,
    uploaded_by_id: by.id,
    created_at: nowIso(),
    ...(body.purpose && { purpose: body.purpose, check_status: 'processing' as const }),
  });
  return { upload_id: uploadId, url: up.url, fields: up.fields, expires_at: up.expiresAt };
}

/** An upload that is not what was issued: its bytes and its record go, and the caller is told why. */
async function refuseUpload(
  tenantId: string,
  uploadId: string,
  key: string,
  code: FileRefusalCode | 'upload_not_found',
  reason: string,
): Promise<never> {
  await deleteEveryVersion(key);
  await store.deleteUpload(tenantId, uploadId);
  if (code === 'upload_not_found') throw uploadNotFound();
  throw new AppError(422, `the upload was refused: ${reason}`, {}, { code, field: 'upload_id' });
}

/**
 * Attach an upload: 202 with the file (processing), or 200 with the file that already holds the
 * same bytes for this person. The record is written before the bytes move to the file key, so
 * the worker the move starts (an S3 event, deployed and local) always finds it.
 */
export async function attachFile(p: Principal, personId: string, body: AttachFileBody): Promise<{ file: File; created: boolean }> {
  const tenantId = p.tenantId;
  await requirePerson(tenantId, personId);
  const upload = await store.getUpload(tenantId, body.upload_id);
  if (!upload) throw uploadNotFound();
  const key = uploadKey(tenantId, upload.upload_id);
  const issued = { tenantId, uploadId: upload.upload_id, key: upload.key, size: upload.size, contentType: upload.content_type };
  const landed = checkLanded(issued, await headObject(key));
  if (!landed.ok) return refuseUpload(tenantId, upload.upload_id, key, landed.code, landed.reason);
  const sha256 = await hashObject(key);

  const by = actorRef(p);
  const record: FileRecord = {
    id: newId(),
    person_id: personId,
    kind: body.kind,
    filename: upload.filename,
    content_type: upload.content_type,
    size: upload.size,
    sha256,
    status: 'processing',
    refusal_code: null,
    has_text: false,
    text_truncated: false,
    uploaded_by_type: by.type,
    uploaded_by_id: by.id,
    created_at: nowIso(),
    processed_at: null,
    scan_status: null,
    text: null,
  };
  const audit = auditBy(p, 'file.attached', { type: 'file', id: record.id }, [
    { field: 'person_id', after: personId },
    { field: 'kind', after: body.kind },
    { field: 'filename' },
  ]);
  const out = await store.attachFile(tenantId, record, upload.upload_id, audit, personCheck(tenantId, personId));
  if ('personGone' in out) throw new NotFoundError('person');
  if ('uploadGone' in out) throw uploadNotFound();
  if ('duplicateOf' in out) {
    await deleteEveryVersion(key);
    await store.deleteUpload(tenantId, upload.upload_id);
    const existing = await store.getFile(tenantId, personId, out.duplicateOf);
    if (existing) return { file: fileAnswer(existing), created: false };
    throw new ConflictError('the same file is being attached or removed at this moment; try again');
  }
  try {
    await promoteUpload(key, fileKey(tenantId, personId, record.id), upload.content_type);
  } catch (err) {
    // Without its bytes the record would stay processing: it goes, and the caller uploads again.
    await store.deleteFileRecords(tenantId, record, auditBy(p, 'file.deleted', { type: 'file', id: record.id }, [{ field: 'filename' }]));
    throw err;
  }
  return { file: fileAnswer(record), created: true };
}

export async function downloadLink(p: Principal, personId: string, fileId: string, now = Date.now()) {
  const f = requireServable(await requireFile(p, personId, fileId));
  const url = await downloadUrl(fileKey(p.tenantId, personId, f.id), {
    filename: f.filename,
    contentType: f.content_type as AllowedContentType,
  });
  return { url, expires_at: new Date(now + DOWNLOAD_VALID_SECONDS * 1000).toISOString() };
}

/** The bytes first (every version), then the records: a retry after a failure between the two finds nothing left to delete. */
export async function deleteFile(p: Principal, personId: string, fileId: string): Promise<void> {
  const f = await requireFile(p, personId, fileId);
  await deleteEveryVersion(fileKey(p.tenantId, personId, f.id));
  const audit = auditBy(p, 'file.deleted', { type: 'file', id: f.id }, [
    { field: 'person_id', before: personId },
    { field: 'kind', before: f.kind },
    { field: 'filename' },
  ]);
  if (!(await store.deleteFileRecords(p.tenantId, f, audit))) throw new NotFoundError('file');
}
