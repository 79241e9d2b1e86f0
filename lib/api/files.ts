/**
 * Files: uploads (a presigned POST straight to the files bucket, and the published limits) and a
 * person's files (attach an upload, list, read one, its text, a download link, delete). The bytes
 * never pass through a function: a client POSTs them to the bucket, then attaches the upload.
 */
import * as z from 'zod/mini';
import { FILE_KINDS, FILE_STATUSES } from '../entities/file';
import { ALLOWED_TYPES, FILE_REFUSAL_CODES, MAX_UPLOAD_BYTES } from '../files/limits';
import { dataOf, IdParam, plainText, Success, timestamp, uuid } from './fields';
import { DOCS, type Route } from './route';

export const UPLOAD_PURPOSES = ['new_person'] as const;
export const UPLOAD_STATUSES = ['processing', 'ready', 'refused'] as const;

const CONTENT_TYPES = ALLOWED_TYPES.map((t) => t.content_type) as unknown as readonly [string, ...string[]];

export const CreateUploadBody = z.strictObject({
  /** The file's name as the client has it; kept sanitised with the file, never in a key or a log. */
  filename: z
    .string({ error: 'filename must be a string' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'filename must not be empty' }),
      z.maxLength(255, { error: 'filename must be at most 255 characters' }),
      ...plainText('filename'),
    ),
  content_type: z.enum(CONTENT_TYPES, { error: `content_type must be one of ${CONTENT_TYPES.join(', ')}` }),
  size: z
    .int({ error: `size must be an integer between 1 and ${MAX_UPLOAD_BYTES}` })
    .check(
      z.gte(1, { error: `size must be an integer between 1 and ${MAX_UPLOAD_BYTES}` }),
      z.lte(MAX_UPLOAD_BYTES, { error: `size must be an integer between 1 and ${MAX_UPLOAD_BYTES}` }),
    ),
  /** `new_person`: the worker checks the bytes on landing and offers the email and phone it finds (GET /api/v1/uploads/{id}). */
  purpose: z.optional(z.enum(UPLOAD_PURPOSES, { error: `purpose must be one of ${UPLOAD_PURPOSES.join(', ')}` })),
});
export type CreateUploadBody = z.output<typeof CreateUploadBody>;

/** A presigned POST: send `fields` then the file (field `file`, last) as multipart/form-data to `url`. */
export const Upload = z.object({
  upload_id: z.uuid(),
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  expires_at: timestamp,
});

export const UploadLimits = z.object({
  max_bytes: z.int(),
  upload_valid_seconds: z.int(),
  types: z.array(z.object({ content_type: z.string(), extensions: z.array(z.string()), name: z.string() })),
});

export const AttachFileBody = z.strictObject({
  upload_id: uuid('upload_id'),
  kind: z.enum(FILE_KINDS, { error: `kind must be one of ${FILE_KINDS.join(', ')}` }),
});
export type AttachFileBody = z.output<typeof AttachFileBody>;

export const FileParams = z.strictObject({ id: uuid('id'), file_id: uuid('file_id') });

/**
 * A file. `content_type` is the one its bytes proved once `ready` (the declared one while
 * `processing`); `refusal_code` says why it was `refused` (its bytes are then deleted).
 */
export const File = z.object({
  id: z.uuid(),
  person_id: z.uuid(),
  kind: z.enum(FILE_KINDS),
  filename: z.string(),
  content_type: z.string(),
  size: z.int(),
  sha256: z.string(),
  status: z.enum(FILE_STATUSES),
  refusal_code: z.nullable(z.enum(FILE_REFUSAL_CODES)),
  has_text: z.boolean(),
  /** `applicant`: the CV of an application (id: the candidate it made). */
  uploaded_by: z.object({ type: z.enum(['token', 'user', 'applicant']), id: z.string() }),
  created_at: timestamp,
  processed_at: z.nullable(timestamp),
});
export type File = z.infer<typeof File>;

export const FileText = z.object({
  id: z.uuid(),
  /** Empty for a type that has no text (images, DOC). */
  text: z.string(),
  truncated: z.boolean(),
});

const NOT_READY = DOCS ? 'The file is still processing, or was refused (code file_not_ready)' : '';

/**
 * What the worker found in an upload issued for a new person: its status and, once ready, the
 * first email and phone of its text, offered to the recruiter (never applied by the service).
 */
export const UploadStatus = z.object({
  upload_id: z.uuid(),
  status: z.enum(UPLOAD_STATUSES),
  suggestions: z.object({ email: z.optional(z.string()), phone: z.optional(z.string()) }),
});
export type UploadStatus = z.output<typeof UploadStatus>;

// ---- routes ------------------------------------------------------------------------------

export const createUpload = {
  method: 'POST',
  path: '/api/v1/uploads',
  console: true,
  handler: 'create-upload',
  auth: 'token',
  scope: 'candidates:write',
  access: 'write',
  files: ['write'],
  summary: DOCS && 'Get a presigned POST for one file (valid 10 minutes); then attach it to a person',
  body: CreateUploadBody,
  status: 201,
  response: dataOf(Upload),
} as const satisfies Route;

export const getUploadLimits = {
  method: 'GET',
  path: '/api/v1/uploads/limits',
  console: true,
  handler: 'get-upload-limits',
  auth: 'token',
  scope: 'candidates:read',
  access: 'none',
  summary: DOCS && 'What an upload may be: the largest size and the allowed types',
  status: 200,
  response: dataOf(UploadLimits),
} as const satisfies Route;

export const getUpload = {
  method: 'GET',
  path: '/api/v1/uploads/{id}',
  console: true,
  handler: 'get-upload',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  summary: DOCS && 'An upload issued with purpose new_person: processing, then ready with the email and phone found in it, or refused',
  params: IdParam,
  ...(DOCS && { errors: { 404: 'No such upload in this workspace, or one issued without purpose new_person (code upload_not_found)' } }),
  status: 200,
  response: dataOf(UploadStatus),
} as const satisfies Route;

export const attachFile = {
  method: 'POST',
  path: '/api/v1/people/{id}/files',
  console: true,
  handler: 'attach-file',
  auth: 'token',
  scope: 'candidates:write',
  access: 'write',
  files: ['read', 'write', 'delete'],
  summary: DOCS && 'Attach an upload to a person: checked, then read in the background (status processing, then ready or refused)',
  params: IdParam,
  body: AttachFileBody,
  ...(DOCS && {
    errors: {
      404: 'No such person, or no such upload in this workspace (code upload_not_found)',
      422: 'The upload is not what was declared (its code says how)',
    },
    alsoStatus: { 200: 'The same bytes are already attached to this person: that file' },
  }),
  status: 202,
  response: dataOf(File),
  timeoutSeconds: 20,
} as const satisfies Route;

export const listFiles = {
  method: 'GET',
  path: '/api/v1/people/{id}/files',
  console: true,
  handler: 'list-files',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  summary: DOCS && "A person's files, newest first",
  params: IdParam,
  status: 200,
  response: dataOf(z.array(File)),
} as const satisfies Route;

export const getFile = {
  method: 'GET',
  path: '/api/v1/people/{id}/files/{file_id}',
  console: true,
  handler: 'get-file',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  summary: DOCS && 'One file',
  params: FileParams,
  status: 200,
  response: dataOf(File),
} as const satisfies Route;

export const getFileText = {
  method: 'GET',
  path: '/api/v1/people/{id}/files/{file_id}/text',
  console: true,
  handler: 'get-file-text',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  summary: DOCS && 'The text read out of a file (PDF, DOCX, ODT, RTF, TXT)',
  params: FileParams,
  ...(DOCS && { errors: { 409: NOT_READY } }),
  status: 200,
  response: dataOf(FileText),
} as const satisfies Route;

export const downloadFile = {
  method: 'GET',
  path: '/api/v1/people/{id}/files/{file_id}/download',
  console: true,
  handler: 'download-file',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  files: ['read'],
  summary: DOCS && 'A redirect (302, Location) to the file, valid 5 minutes, saved as an attachment',
  params: FileParams,
  ...(DOCS && { errors: { 409: NOT_READY } }),
  status: 302,
  response: dataOf(z.object({ url: z.string(), expires_at: timestamp })),
} as const satisfies Route;

export const deleteFile = {
  method: 'DELETE',
  path: '/api/v1/people/{id}/files/{file_id}',
  console: true,
  handler: 'delete-file',
  auth: 'token',
  scope: 'candidates:write',
  access: 'write',
  files: ['delete'],
  summary: DOCS && 'Delete a file: its bytes (every version), its text and its record',
  params: FileParams,
  status: 200,
  response: Success,
} as const satisfies Route;
