/**
 * A person's files, as the read routes see them: list, one file, its text. Nothing here touches
 * the bucket (lib/domain/file-objects.ts does): these functions carry no S3 code.
 *
 * A file of another workspace's person, or of another person, is a 404 like a file that does not
 * exist: its id says nothing.
 */
import type { File } from '../api/files';
import type { FileRecord } from '../entities/file';
import { config } from '../config';
import { ConflictError, NotFoundError } from '../errors';
import type { FileRefusalCode } from '../files/limits';
import * as store from '../store/files';
import { seenPerson } from './person-sight';
import { scanVerdict } from './file-scan-rules';
import type { Principal } from './principal';

/** The answer shape of a file record. */
export const fileAnswer = (f: FileRecord): File => ({
  id: f.id,
  person_id: f.person_id,
  kind: f.kind,
  filename: f.filename,
  content_type: f.content_type,
  size: f.size,
  sha256: f.sha256,
  status: f.status,
  refusal_code: (f.refusal_code as FileRefusalCode | null) ?? null,
  has_text: f.has_text,
  uploaded_by: {
    type: f.uploaded_by_type === 'token' || f.uploaded_by_type === 'applicant' ? f.uploaded_by_type : 'user',
    id: f.uploaded_by_id,
  },
  created_at: f.created_at,
  processed_at: f.processed_at ?? null,
});

/** A file of a person the caller sees (lib/domain/person-sight.ts): a person's files are seen with the person. */
export async function requireFile(p: Principal, personId: string, fileId: string): Promise<FileRecord> {
  const [, f] = await Promise.all([seenPerson(p, personId), store.getFile(p.tenantId, personId, fileId)]);
  if (!f) throw new NotFoundError('file');
  return f;
}

export async function listFiles(p: Principal, personId: string): Promise<File[]> {
  const [, files] = await Promise.all([seenPerson(p, personId), store.listFiles(p.tenantId, personId)]);
  return files.map(fileAnswer);
}

export async function getFile(p: Principal, personId: string, fileId: string): Promise<File> {
  return fileAnswer(await requireFile(p, personId, fileId));
}

export const notReady = (f: FileRecord) =>
  new ConflictError(
    f.status === 'refused' ? `the file was refused (${f.refusal_code})` : 'the file is still processing; try again shortly',
    {
      code: 'file_not_ready',
    },
  );

/**
 * A file whose text or bytes may be served: ready and, when the stack scans for malware, scanned
 * clean (409 `file_not_ready`, `scan_pending` or `file_infected` otherwise).
 */
export function requireServable(f: FileRecord): FileRecord {
  const verdict = scanVerdict(config.filesMalwareScan, f.scan_status);
  // A threat is named as such, though it also refused the file.
  if (!verdict.serve && verdict.code === 'file_infected') throw new ConflictError(verdict.error, { code: verdict.code });
  if (f.status !== 'ready') throw notReady(f);
  if (!verdict.serve) throw new ConflictError(verdict.error, { code: verdict.code });
  return f;
}

export async function getFileText(p: Principal, personId: string, fileId: string) {
  const f = requireServable(await requireFile(p, personId, fileId));
  const text = f.has_text ? await store.getFileText(p.tenantId, personId, fileId) : undefined;
  return { id: f.id, text: text?.text ?? '', truncated: text?.truncated ?? false };
}
