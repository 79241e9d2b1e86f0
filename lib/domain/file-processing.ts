/**
 * The file worker's one job: an attached file's bytes decide what it is (lib/files/sniff.ts),
 * and an allowed file is read (lib/files/extract.ts). A file whose bytes are not an allowed type,
 * not the type declared, or a zip bomb is refused: its object (every version) is deleted and its
 * record says why. Runs once per file: a second delivery of the same S3 event, or a file deleted
 * meanwhile, changes nothing. Loads the parsers: imported by functions/file-worker.ts only.
 *
 * Deployed, an S3 event (ObjectCreated under `files/`) starts it; locally, the local S3 emits the
 * same event for the same copy (dev/files-and-mail.ts). One path: the event names the key, the
 * key names the tenant, person and file.
 */
import { type AllowedContentType, CV_MAX_BYTES, MAX_UPLOAD_BYTES } from '../files/limits';
import { APPLICANT_UPLOADER } from '../files/keys';
import { extractText, TEXT_TYPES } from '../files/extract';
import { fileKey, parseFileKey, parseUploadKey, uploadKey } from '../files/keys';
import { suggestFields } from '../files/suggest';
import { inspectFile } from '../files/sniff';
import { deleteEveryVersion, readObject } from '../files/storage';
import { checkDetected } from '../files/verify';
import { nowIso } from '../ids';
import { getFile, getUpload, markProcessed, markScanned, markUploadChecked, type Processed } from '../store/files';
import { isThreat } from './file-scan-rules';

export type ProcessOutcome = 'ready' | 'refused' | 'skipped';

/** Decide the outcome from the bytes: pure but for the parsers. */
export async function decide(bytes: Uint8Array, declared: AllowedContentType): Promise<Processed> {
  const inspected = await inspectFile(bytes);
  if (!inspected.ok) return { status: 'refused', code: inspected.code };
  const matches = checkDetected({ contentType: declared }, inspected.contentType);
  if (!matches.ok) return { status: 'refused', code: 'file_type_mismatch' };
  if (!TEXT_TYPES.has(inspected.contentType)) return { status: 'ready', contentType: inspected.contentType };
  const extracted = await extractText(bytes, inspected.contentType);
  if (!extracted.ok) {
    // A zip that lies about its contents is refused; a document a parser cannot read is kept, without text.
    if (extracted.code === 'archive_too_large') return { status: 'refused', code: 'archive_too_large' };
    return { status: 'ready', contentType: inspected.contentType };
  }
  return { status: 'ready', contentType: inspected.contentType, text: { text: extracted.text, truncated: extracted.truncated } };
}

/** Process the attached file at `key` (an S3 event's object key, decoded). */
export async function processFileAt(key: string): Promise<ProcessOutcome> {
  const ids = parseFileKey(key);
  if (!ids) return 'skipped';
  const f = await getFile(ids.tenantId, ids.personId, ids.fileId);
  if (f?.status !== 'processing') return 'skipped';
  const objectKey = fileKey(ids.tenantId, ids.personId, ids.fileId);
  let bytes: Uint8Array;
  try {
    // An applicant's CV is held to the public form's smaller cap, whatever the storage policy let through.
    bytes = await readObject(objectKey, f.uploaded_by_type === APPLICANT_UPLOADER ? CV_MAX_BYTES : MAX_UPLOAD_BYTES);
  } catch {
    // Past the size cap, or gone (deleted meanwhile): nothing of it is kept.
    await deleteEveryVersion(objectKey);
    return (await markProcessed(ids.tenantId, f, { status: 'refused', code: 'file_too_large' }, nowIso())) ? 'refused' : 'skipped';
  }
  const outcome = await decide(bytes, f.content_type as AllowedContentType);
  if (outcome.status === 'refused') await deleteEveryVersion(objectKey);
  return (await markProcessed(ids.tenantId, f, outcome, nowIso())) ? outcome.status : 'skipped';
}

/**
 * An upload issued for a new person, landed: its bytes checked as an attached file's are, then
 * the first email and phone of its text kept on the upload's item (never the text). Refused
 * bytes are deleted. Uploads issued without that purpose, and a second run, change nothing.
 */
export async function checkUploadAt(key: string): Promise<ProcessOutcome> {
  const ids = parseUploadKey(key);
  if (!ids) return 'skipped';
  const upload = await getUpload(ids.tenantId, ids.uploadId);
  if (upload?.purpose !== 'new_person' || upload.check_status !== 'processing') return 'skipped';
  const objectKey = uploadKey(ids.tenantId, ids.uploadId);
  let outcome: Processed;
  try {
    outcome = await decide(await readObject(objectKey), upload.content_type);
  } catch {
    outcome = { status: 'refused', code: 'file_too_large' };
  }
  if (outcome.status === 'refused') await deleteEveryVersion(objectKey);
  const found = outcome.status === 'ready' && outcome.text ? suggestFields(outcome.text.text) : { emails: [], phones: [] };
  const suggestions = { ...(found.emails[0] && { email: found.emails[0] }), ...(found.phones[0] && { phone: found.phones[0] }) };
  return (await markUploadChecked(ids.tenantId, ids.uploadId, outcome.status, suggestions)) ? outcome.status : 'skipped';
}

/**
 * GuardDuty's scan result for the object at `key` (its EventBridge event): recorded on the file,
 * and a threat refuses it and deletes its bytes (every version). Runs again harmlessly.
 */
export async function recordScanAt(key: string, scanStatus: string): Promise<'recorded' | 'refused' | 'skipped'> {
  const ids = parseFileKey(key);
  if (!ids) return 'skipped';
  const f = await getFile(ids.tenantId, ids.personId, ids.fileId);
  if (!f) return 'skipped';
  const threat = isThreat(scanStatus);
  if (threat) await deleteEveryVersion(fileKey(ids.tenantId, ids.personId, ids.fileId));
  if (!(await markScanned(ids.tenantId, f, scanStatus, threat, nowIso()))) return 'skipped';
  return threat ? 'refused' : 'recorded';
}
