/**
 * Bulk import of candidates: the upload, the job and its refused rows.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import { IdParam, dataOf, intParam, nextCursor, pageCursor, timestamp } from './fields';
import { DOCS, IDEM_CONFLICT, IDEM_MISMATCH, type Route } from './route';

// ---- bulk import -------------------------------------------------------------------------

export const IMPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

export const ImportQuery = z.strictObject({
  /** `true`: check every row and write nothing. */
  dry_run: z.optional(z.enum(['true', 'false'], { error: 'dry_run must be true or false' })),
});
export type ImportQuery = z.output<typeof ImportQuery>;

export const ImportErrorsQuery = z.strictObject({
  cursor: pageCursor,
  limit: z._default(intParam('limit', 1, 500), 100),
});
export type ImportErrorsQuery = z.output<typeof ImportErrorsQuery>;

const importFormat = z.enum(['csv', 'ndjson']);
/** `total`: rows in the file; `skipped`: duplicates (an email already in the workspace or in an earlier row). */
const ImportCounts = z.object({ total: z.int(), created: z.int(), skipped: z.int(), failed: z.int() });

export const ImportJob = z.object({
  id: z.uuid(),
  /**
   * Always false here, true on a dry run's answer. Typed as a literal only in the OpenAPI
   * document (lib/openapi.ts): z.literal would add its zod code to every function's bundle.
   */
  dry_run: z.boolean(),
  status: z.enum(IMPORT_STATUSES),
  format: importFormat,
  counts: ImportCounts,
  /** Rows done so far (created, skipped or failed): processed / counts.total is the progress. */
  processed: z.int(),
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: z.nullable(timestamp),
});
export type ImportJob = z.output<typeof ImportJob>;

/** A row not imported: its number in the file, `failed` or `skipped` (a duplicate), the column at fault, a code and a sentence. */
export const ImportRowError = z.object({
  row: z.int(),
  outcome: z.enum(['failed', 'skipped']),
  field: z.nullable(z.string()),
  code: z.string(),
  error: z.string(),
});
export type ImportRowError = z.output<typeof ImportRowError>;

export const DRY_RUN_ERRORS = 100;
/** A dry run: the counts (`created`: would be created) and the first 100 row errors; nothing is written. */
export const ImportDryRun = z.object({
  /** Always true (see ImportJob). */
  dry_run: z.boolean(),
  format: importFormat,
  counts: ImportCounts,
  errors: z.array(ImportRowError),
  /** More row errors than `errors` holds. */
  errors_truncated: z.boolean(),
});
export type ImportDryRun = z.output<typeof ImportDryRun>;

/**
 * POST /candidates/imports answers a job or a dry run's result: typed as that union for the
 * handler. Only the OpenAPI document reads the schema, and it has its own z.union (lib/openapi.ts
 * RESPONSES), so that no function bundles z.union's code for it.
 */
export const ImportAnswer = ImportJob as unknown as z.ZodMiniType<ImportJob | ImportDryRun>;

export const ImportErrorPage = z.object({ data: z.array(ImportRowError), next_cursor: nextCursor });

// ---- routes ------------------------------------------------------------------------------

export const createImport = {
  method: 'POST',
  path: '/api/v1/candidates/imports',
  console: true,
  handler: 'create-import',
  idempotent: true,
  importQueue: true,
  auth: 'token',
  scope: 'candidates:write',
  access: 'write',
  summary: DOCS && 'Import candidates from a CSV or NDJSON file',
  query: ImportQuery,
  upload: ['text/csv', 'application/x-ndjson'],
  ...(DOCS && {
    errors: { 409: IDEM_CONFLICT, 413: 'File over 5 MB', 415: 'Not text/csv or application/x-ndjson in UTF-8', 422: IDEM_MISMATCH },
  }),
  status: 202,
  ...(DOCS && { alsoStatus: { 200: 'A dry run, or the same file imported in the last 7 days: that job' } }),
  response: dataOf(ImportAnswer),
  timeoutSeconds: 28,
} as const satisfies Route;

export const getImport = {
  method: 'GET',
  path: '/api/v1/candidates/imports/{id}',
  console: true,
  handler: 'get-import',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  summary: DOCS && 'An import job and its progress',
  params: IdParam,
  status: 200,
  response: dataOf(ImportJob),
} as const satisfies Route;

export const listImportErrors = {
  method: 'GET',
  path: '/api/v1/candidates/imports/{id}/errors',
  console: true,
  handler: 'list-import-errors',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  summary: DOCS && "An import's refused rows, in row order",
  params: IdParam,
  query: ImportErrorsQuery,
  status: 200,
  response: ImportErrorPage,
} as const satisfies Route;
