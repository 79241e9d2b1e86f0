/**
 * The application worker attaches the applicant's CV to their person, through the files flow: the
 * bytes checked at their key under the job (size, and a PDF or DOCX by their first bytes), the
 * file record written with its guard (the same bytes twice are one file), then the copy to the
 * person's file key, whose event runs the file worker (the type proved by the bytes, the text
 * read, the size held to the CV cap again). Erasing the person deletes it with their files.
 *
 * Once per CV: the copy deletes the upload, so a message delivered again, or a second application
 * naming the same upload, finds nothing to attach.
 */
import { createHash } from 'node:crypto';
import type { ApplicationMessage } from '../applications/queue';
import type { FileRecord } from '../entities/file';
import { APPLICANT_UPLOADER, applicationCvKey, fileKey } from '../files/keys';
import { CV_CONTENT_TYPES, CV_MAX_BYTES, type CvContentType } from '../files/limits';
import { newId, nowIso } from '../ids';
import type { AuditEntry } from '../store/audit';
import { attachFile, personItemCheck } from '../store/files';

/**
 * The bucket's operations, loaded with the first CV: the storage module reads the bucket's name as
 * it loads, and the worker's other work (imports, applications without a CV) needs none. Only this
 * module is loaded late: a late import of a module that reaches the table's client would make the
 * bundler keep the whole DynamoDB client (tens of KB) in the worker.
 */
const storage = () => import('../files/storage');

export type CvOutcome = 'attached' | 'missing' | 'refused' | 'duplicate';

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/**
 * The type the CV declares by its first bytes: a PDF, or a zip taken for a DOCX. Only a guess for
 * the record: the file worker proves the type from the whole file and refuses any other zip.
 */
export function cvTypeOf(bytes: Uint8Array): CvContentType | undefined {
  if (startsWith(bytes, PDF)) return CV_CONTENT_TYPES[0];
  if (startsWith(bytes, ZIP)) return CV_CONTENT_TYPES[1];
  return undefined;
}

/** An application that added nothing keeps no CV: its bytes go now rather than with the day's lifecycle. */
export async function dropApplicationCv(m: ApplicationMessage): Promise<void> {
  if (m.cvUploadId) await (await storage()).deleteEveryVersion(applicationCvKey(m.tenantId, m.reqId, m.cvUploadId));
}

export async function attachApplicationCv(
  m: ApplicationMessage,
  personId: string,
  actor: AuditEntry['actor'],
): Promise<CvOutcome | undefined> {
  if (!m.cvUploadId) return undefined;
  const key = applicationCvKey(m.tenantId, m.reqId, m.cvUploadId);
  const { deleteEveryVersion, headObject, promoteUpload, readObject } = await storage();
  const head = await headObject(key);
  if (!head?.size) return 'missing';
  let bytes: Uint8Array | undefined;
  try {
    bytes = head.size <= CV_MAX_BYTES ? await readObject(key, CV_MAX_BYTES) : undefined;
  } catch {
    bytes = undefined;
  }
  const type = bytes && cvTypeOf(bytes);
  if (!bytes || !type) {
    await deleteEveryVersion(key);
    return 'refused';
  }
  const record: FileRecord = {
    id: newId(),
    person_id: personId,
    kind: 'resume',
    // The applicant's own filename never reaches the service (the form posts the file to storage).
    filename: type === CV_CONTENT_TYPES[0] ? 'cv.pdf' : 'cv.docx',
    content_type: type,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    status: 'processing',
    refusal_code: null,
    has_text: false,
    text_truncated: false,
    uploaded_by_type: APPLICANT_UPLOADER,
    uploaded_by_id: m.applicationId,
    created_at: nowIso(),
    processed_at: null,
    scan_status: null,
    text: null,
  };
  const audit: AuditEntry = {
    action: 'file.attached',
    actor,
    target: { type: 'file', id: record.id },
    changes: [{ field: 'person_id', after: personId }, { field: 'kind', after: 'resume' }, { field: 'filename' }],
  };
  const out = await attachFile(m.tenantId, record, undefined, audit, personItemCheck(m.tenantId, personId));
  if (!('attached' in out)) {
    await deleteEveryVersion(key);
    return 'duplicate';
  }
  await promoteUpload(key, fileKey(m.tenantId, personId, record.id), type);
  return 'attached';
}
