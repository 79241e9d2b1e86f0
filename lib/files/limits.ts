/**
 * What an upload may be, as data: the one place the size cap and the allowed types are stated.
 * The presigned POST pins them, the byte check holds every landed file to them, and the limits
 * route will answer UPLOAD_LIMITS as it is (machine-readable, so a client can check a file before
 * it asks for an upload). Pure: no SDK, no parser, safe to import from any function.
 */

/** 20 MiB: a long CV with pictures, a portfolio of a few pages. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** An applicant's CV (the public application form): one file, PDF or DOCX, at most 10 MiB. */
export const CV_MAX_BYTES = 10 * 1024 * 1024;
export const CV_CONTENT_TYPES = ['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'] as const;
export type CvContentType = (typeof CV_CONTENT_TYPES)[number];

/** How long a presigned POST is valid: long enough for a slow phone, short enough to be useless when leaked. */
export const UPLOAD_VALID_SECONDS = 600;

/**
 * How long an upload never attached stays under `uploads/`: the deployed bucket's lifecycle rule
 * (`UnattachedUploads`) and the local S3's sweep (dev/upload-expiry.ts) both read it. The presigned
 * POST lapsed after UPLOAD_VALID_SECONDS; a day is ample for the attach or the application.
 */
export const UNATTACHED_UPLOAD_DAYS = 1;

/** How long a download link is valid, at most. */
export const DOWNLOAD_VALID_SECONDS = 300;

/** One allowed type: the content type the bytes prove, its usual extensions, and a name for people. */
export interface AllowedType {
  readonly content_type: string;
  readonly extensions: readonly string[];
  readonly name: string;
  /** Whether text is extracted from it (images are shown, not read). */
  readonly text: boolean;
}

export const ALLOWED_TYPES = [
  { content_type: 'application/pdf', extensions: ['pdf'], name: 'PDF', text: true },
  { content_type: 'application/msword', extensions: ['doc'], name: 'Word 97-2003 (DOC)', text: false },
  {
    content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['docx'],
    name: 'Word (DOCX)',
    text: true,
  },
  { content_type: 'application/vnd.oasis.opendocument.text', extensions: ['odt'], name: 'OpenDocument text (ODT)', text: true },
  { content_type: 'application/rtf', extensions: ['rtf'], name: 'Rich Text (RTF)', text: true },
  { content_type: 'text/plain', extensions: ['txt'], name: 'Plain text (TXT)', text: true },
  { content_type: 'image/png', extensions: ['png'], name: 'PNG image', text: false },
  { content_type: 'image/jpeg', extensions: ['jpg', 'jpeg'], name: 'JPEG image', text: false },
] as const satisfies readonly AllowedType[];

export type AllowedContentType = (typeof ALLOWED_TYPES)[number]['content_type'];

const BY_TYPE = new Map<string, AllowedType>(ALLOWED_TYPES.map((t) => [t.content_type, t]));

/** The allowed type a declared or detected content type names (parameters and case ignored), if any. */
export function allowedType(contentType: string): AllowedType | undefined {
  return BY_TYPE.get(contentType.split(';')[0]!.trim().toLowerCase());
}

export const isAllowedContentType = (contentType: string): contentType is AllowedContentType => allowedType(contentType) !== undefined;

/**
 * Why a file is refused, for the file record and the `{ code }` of an answer. Stable: clients
 * branch on them.
 * - `file_type_not_allowed`: the bytes are not one of ALLOWED_TYPES (HTML, SVG, scripts,
 *   executables, archives, anything unknown), whatever the name or the declared type says;
 * - `file_type_mismatch`: the bytes are an allowed type, but not the one declared (and pinned in
 *   the upload's policy);
 * - `file_too_large`: more than MAX_UPLOAD_BYTES;
 * - `file_size_mismatch`: not the size declared (and pinned in the upload's policy);
 * - `file_empty`: no bytes;
 * - `archive_too_large`: a DOCX or ODT whose contents would expand past ARCHIVE_LIMITS (a zip
 *   bomb), found from its directory without inflating anything;
 * - `file_infected`: the malware scan (a stack deployed with malware protection) found a threat.
 */
export const FILE_REFUSAL_CODES = [
  'file_type_not_allowed',
  'file_type_mismatch',
  'file_too_large',
  'file_size_mismatch',
  'file_empty',
  'archive_too_large',
  'file_infected',
] as const;
export type FileRefusalCode = (typeof FILE_REFUSAL_CODES)[number];

/**
 * Bounds on a DOCX or ODT (a zip) read from its central directory. A real CV expands to well
 * under 10 MB, at a ratio under 20 (XML compresses about 5-10x); a zip bomb declares gigabytes
 * at ratios of hundreds or more. Any one bound passed refuses the file.
 */
export const ARCHIVE_LIMITS = {
  /** The declared uncompressed size of all entries together. */
  maxTotalBytes: 100 * 1024 * 1024,
  /** The declared uncompressed size of one entry. */
  maxEntryBytes: 50 * 1024 * 1024,
  /** Uncompressed over compressed, per entry of at least 1 KiB compressed (tiny entries compress oddly). */
  maxRatio: 100,
  maxEntries: 2_000,
} as const;

/** At most this much extracted text is kept per file (UTF-8 bytes); the rest is cut, and said so. */
export const MAX_TEXT_BYTES = 256 * 1024;

/** What the limits route answers (docs/api.md will publish it): the allowed types and the bounds. */
export const UPLOAD_LIMITS = {
  max_bytes: MAX_UPLOAD_BYTES,
  upload_valid_seconds: UPLOAD_VALID_SECONDS,
  types: ALLOWED_TYPES.map(({ content_type, extensions, name }) => ({ content_type, extensions: [...extensions], name })),
} as const;
