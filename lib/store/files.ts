/**
 * Uploads and files in the table. An upload (its own partition `T#<tenant>#UPLOAD#<id>`) is what the
 * service issued a presigned POST for: kept a day (TTL), consumed once by the attach call. A file
 * lives in its person's partition (`T#<tenant>#PERSON#<person>`): its record `FILE#<id>`, its
 * text `FILETEXT#<id>` (up to MAX_TEXT_BYTES, under the 400 KB item limit) and the guard
 * `GUARD#FILE#<sha256>` that makes the same bytes attached twice one file. Erasing the person
 * deletes the partition, so all three go with it.
 */
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type FileRecord, fileFromItem, type FileStatus } from '../entities/file';
import type { AllowedContentType, FileRefusalCode } from '../files/limits';
import { type AuditEntry, auditPuts } from './audit';
import { ddb, tableName } from './client';
import { keys, uploadKey } from './table';
import { writeParts } from './tx';

type Item = Record<string, unknown>;

/** How long an unattached upload's record is kept (the bucket's lifecycle rule deletes its bytes after as long). */
export const UPLOAD_RECORD_SECONDS = 24 * 60 * 60;

const personPartition = (tenantId: string, personId: string) => keys.personPartition(tenantId, personId);

export const fileKeys = {
  upload: uploadKey,
  file: (tenantId: string, personId: string, fileId: string) => ({ PK: personPartition(tenantId, personId), SK: `FILE#${fileId}` }),
  text: (tenantId: string, personId: string, fileId: string) => ({ PK: personPartition(tenantId, personId), SK: `FILETEXT#${fileId}` }),
  guard: (tenantId: string, personId: string, sha256: string) => ({
    PK: personPartition(tenantId, personId),
    SK: `GUARD#FILE#${sha256}`,
  }),
  filePrefix: 'FILE#',
};

export interface UploadRecord {
  upload_id: string;
  key: string;
  size: number;
  content_type: AllowedContentType;
  /** Sanitised; personal (kept until the upload is attached, or for a day). */
  filename: string;
  uploaded_by_type: 'token' | 'user';
  uploaded_by_id: string;
  created_at: string;
  /** `new_person`: the worker checks the landed bytes and records what it found (below). */
  purpose?: 'new_person';
  /** With a purpose: processing until the worker ran, then ready or refused. */
  check_status?: 'processing' | 'ready' | 'refused';
  /** Personal: the first email and phone of the text, never the text; gone with the item (TTL, attach). */
  suggestions?: { email?: string; phone?: string };
}

export async function putUpload(tenantId: string, u: UploadRecord, nowMs = Date.now()): Promise<void> {
  await writeParts({
    upload: {
      Put: {
        TableName: tableName(),
        Item: {
          ...fileKeys.upload(tenantId, u.upload_id),
          type: 'upload',
          tenant_id: tenantId,
          ...u,
          expires_at: Math.floor(nowMs / 1000) + UPLOAD_RECORD_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  });
}

/** The upload this tenant was issued under this id (another tenant's id reads as none); none once it expired. */
export async function getUpload(tenantId: string, uploadId: string, nowMs = Date.now()): Promise<UploadRecord | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: fileKeys.upload(tenantId, uploadId), ConsistentRead: true }),
  );
  if (!Item || (typeof Item.expires_at === 'number' && Item.expires_at * 1000 <= nowMs)) return undefined;
  return Item as unknown as UploadRecord;
}

/** The worker's finding on an upload issued for a new person, once: false when it is gone or already checked. */
export async function markUploadChecked(
  tenantId: string,
  uploadId: string,
  status: 'ready' | 'refused',
  suggestions: { email?: string; phone?: string },
): Promise<boolean> {
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: fileKeys.upload(tenantId, uploadId),
        UpdateExpression: 'SET check_status = :s, suggestions = :g',
        ConditionExpression: 'check_status = :p',
        ExpressionAttributeValues: { ':s': status, ':g': suggestions, ':p': 'processing' },
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

export async function deleteUpload(tenantId: string, uploadId: string): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName(), Key: fileKeys.upload(tenantId, uploadId) }));
}

export const fileItem = (tenantId: string, f: FileRecord): Item => {
  const { text: _text, ...stored } = f;
  return {
    ...fileKeys.file(tenantId, f.person_id, f.id),
    type: 'file',
    tenant_id: tenantId,
    ...Object.fromEntries(Object.entries(stored).filter(([, v]) => v !== null)),
  };
};

export type AttachOutcome = { attached: true } | { duplicateOf: string } | { uploadGone: true } | { personGone: true };

/**
 * The attach, in one transaction: the upload consumed (it must still be there), the guard of its
 * bytes claimed for this person (else the file already holding them is answered), the file
 * record written, the audit record appended, and `personCheck` (the person exists) held.
 */
export async function attachFile(
  tenantId: string,
  f: FileRecord,
  /** The upload record consumed; none for an applicant's CV, whose key is its only record. */
  uploadId: string | undefined,
  audit: AuditEntry,
  personCheck: Item | undefined,
): Promise<AttachOutcome> {
  const out = await writeParts({
    person: personCheck && { ConditionCheck: personCheck },
    upload: uploadId !== undefined && {
      Delete: { TableName: tableName(), Key: fileKeys.upload(tenantId, uploadId), ConditionExpression: 'attribute_exists(PK)' },
    },
    guard: {
      Put: {
        TableName: tableName(),
        Item: { ...fileKeys.guard(tenantId, f.person_id, f.sha256), type: 'file_guard', tenant_id: tenantId, file_id: f.id },
        ConditionExpression: 'attribute_not_exists(PK)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    file: { Put: { TableName: tableName(), Item: fileItem(tenantId, f), ConditionExpression: 'attribute_not_exists(PK)' } },
    audit: auditPuts(tenantId, audit),
  });
  if ('written' in out) return { attached: true };
  if ('conflict' in out) throw new Error('the attach lost to a concurrent write; try again');
  if (out.refused === 'person') return { personGone: true };
  if (out.refused === 'guard' && typeof out.seen?.file_id === 'string') return { duplicateOf: out.seen.file_id };
  return { uploadGone: true };
}

export async function getFile(tenantId: string, personId: string, fileId: string): Promise<FileRecord | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: fileKeys.file(tenantId, personId, fileId), ConsistentRead: true }),
  );
  return Item && fileFromItem(Item);
}

/** A person's files, newest first (ids are UUIDv7). A person holds a few files: one Query, paged to its end. */
export async function listFiles(tenantId: string, personId: string): Promise<FileRecord[]> {
  const out: FileRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': personPartition(tenantId, personId), ':sk': fileKeys.filePrefix },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    out.push(...(res.Items ?? []).map(fileFromItem));
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

export async function getFileText(
  tenantId: string,
  personId: string,
  fileId: string,
): Promise<{ text: string; truncated: boolean } | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: fileKeys.text(tenantId, personId, fileId), ConsistentRead: true }),
  );
  return Item && { text: String(Item.text ?? ''), truncated: Item.truncated === true };
}

export type Processed =
  | { status: Extract<FileStatus, 'ready'>; contentType: AllowedContentType; text?: { text: string; truncated: boolean } }
  | { status: Extract<FileStatus, 'refused'>; code: FileRefusalCode };

/**
 * The worker's outcome, once: the file moves from processing (a second delivery of the same
 * event, or a file deleted meanwhile, changes nothing) and its text is written with it.
 */
export async function markProcessed(tenantId: string, f: FileRecord, p: Processed, at: string): Promise<boolean> {
  const set =
    p.status === 'ready'
      ? { status: 'ready', content_type: p.contentType, has_text: Boolean(p.text?.text), text_truncated: p.text?.truncated ?? false }
      : { status: 'refused', refusal_code: p.code, has_text: false };
  const names = Object.keys({ ...set, processed_at: at });
  const out = await writeParts({
    file: {
      Update: {
        TableName: tableName(),
        Key: fileKeys.file(tenantId, f.person_id, f.id),
        UpdateExpression: `SET ${names.map((_n, i) => `#a${i} = :v${i}`).join(', ')}`,
        ConditionExpression: '#status = :processing',
        ExpressionAttributeNames: { ...Object.fromEntries(names.map((n, i) => [`#a${i}`, n])), '#status': 'status' },
        ExpressionAttributeValues: {
          ...Object.fromEntries(Object.values({ ...set, processed_at: at }).map((v, i) => [`:v${i}`, v])),
          ':processing': 'processing',
        },
      },
    },
    text: p.status === 'ready' &&
      Boolean(p.text?.text) && {
        Put: {
          TableName: tableName(),
          Item: { ...fileKeys.text(tenantId, f.person_id, f.id), type: 'file_text', tenant_id: tenantId, ...p.text! },
        },
      },
  });
  return 'written' in out;
}

/**
 * GuardDuty's verdict on the file's bytes, recorded (`scan_status`); a threat also refuses the
 * file (`file_infected`) and deletes its text, whatever its status was. False when the file is gone.
 */
export async function markScanned(tenantId: string, f: FileRecord, scanStatus: string, threat: boolean, at: string): Promise<boolean> {
  const set: Record<string, unknown> = threat
    ? {
        scan_status: scanStatus,
        status: 'refused',
        refusal_code: 'file_infected',
        has_text: false,
        text_truncated: false,
        processed_at: at,
      }
    : { scan_status: scanStatus };
  const names = Object.keys(set);
  const out = await writeParts({
    file: {
      Update: {
        TableName: tableName(),
        Key: fileKeys.file(tenantId, f.person_id, f.id),
        UpdateExpression: `SET ${names.map((_n, i) => `#a${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#a${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(Object.values(set).map((v, i) => [`:v${i}`, v])),
      },
    },
    text: threat && { Delete: { TableName: tableName(), Key: fileKeys.text(tenantId, f.person_id, f.id) } },
  });
  return 'written' in out;
}

/** A file's record, text and guard gone, with its audit record; false when the record was already gone. */
export async function deleteFileRecords(tenantId: string, f: FileRecord, audit: AuditEntry): Promise<boolean> {
  const out = await writeParts({
    file: {
      Delete: { TableName: tableName(), Key: fileKeys.file(tenantId, f.person_id, f.id), ConditionExpression: 'attribute_exists(PK)' },
    },
    text: { Delete: { TableName: tableName(), Key: fileKeys.text(tenantId, f.person_id, f.id) } },
    guard: {
      Delete: {
        TableName: tableName(),
        Key: fileKeys.guard(tenantId, f.person_id, f.sha256),
      },
    },
    audit: auditPuts(tenantId, audit),
  });
  return 'written' in out;
}

const personKey = (tenantId: string, personId: string) => keys.person(tenantId, personId);

export async function personExists(tenantId: string, personId: string): Promise<boolean> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: personKey(tenantId, personId), ConsistentRead: true }));
  return Item !== undefined && Item.erased_at === undefined;
}

/** A ConditionCheck holding that the person is there (and not erased) when a file is attached. */
export const personItemCheck = (tenantId: string, personId: string): Item => ({
  TableName: tableName(),
  Key: personKey(tenantId, personId),
  ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(erased_at)',
});

/** How many files a person has (their records, whatever their status): one Query of counts. */
export async function countPersonFiles(tenantId: string, personId: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': personPartition(tenantId, personId), ':sk': fileKeys.filePrefix },
        Select: 'COUNT',
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    count += res.Count ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
  return count;
}
