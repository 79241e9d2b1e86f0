/**
 * A person's file (lib/store/files.ts): the record of one uploaded document in the person's
 * partition (`FILE#<id>`), and its extracted text in an item of its own (`FILETEXT#<id>`, so a
 * list reads no text). The filename (it often holds the person's name) and the text are personal:
 * erased with the person, audited by name only, never logged. The bytes live in the files bucket
 * under a key of ids only (lib/files/keys.ts).
 */
import { defineEntity, field, fromItem, type RecordOf } from '../entity';
import type { Item } from '../item';

export const FILE_KINDS = ['resume', 'cover_letter', 'portfolio', 'other'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** processing: attached, its bytes not yet checked; ready: checked (and read); refused: its bytes failed, the object is gone. */
export const FILE_STATUSES = ['processing', 'ready', 'refused'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

export const file = defineEntity('file', {
  id: field.uuid({ audit: 'none' }),
  person_id: field.uuid({ audit: 'none' }),
  kind: field.oneOf(FILE_KINDS),
  filename: field.string({ personal: true }),
  content_type: field.string(),
  size: field.int(),
  sha256: field.string(),
  status: field.oneOf(FILE_STATUSES),
  /** Why the file was refused (a FileRefusalCode); null otherwise. */
  refusal_code: field.string({ optional: true }),
  /** Whether text was extracted, and cut at the bound. */
  has_text: field.bool({ ifAbsent: false }),
  text_truncated: field.bool({ ifAbsent: false }),
  uploaded_by_type: field.string({ audit: 'none' }),
  uploaded_by_id: field.string({ audit: 'none' }),
  created_at: field.time({ audit: 'none' }),
  processed_at: field.time({ optional: true, audit: 'none' }),
  /** GuardDuty's scan result for the bytes (lib/domain/file-scan-rules.ts), when the stack scans; absent until it reports. */
  scan_status: field.string({ optional: true, audit: 'none' }),
  /** In its own item (FILETEXT#<id>): the text read out of the file, for the reader and search. */
  text: field.string({ optional: true, personal: true, shapes: [] }),
});

export type FileRecord = RecordOf<typeof file.fields>;

export const fileFromItem = (item: Item): FileRecord => fromItem(file, item);
