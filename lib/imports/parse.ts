/**
 * Bulk import files: CSV (a header row, then one candidate per record) or NDJSON (one JSON object
 * per line), read whole and checked before anything is written. Pure: no table, no network.
 *
 * Row numbers are what the uploader sees: in a CSV the row a spreadsheet shows (the header is
 * row 1, the first candidate row 2, a blank line is a row, a quoted cell spanning lines is still
 * one row; lib/csv.ts); in NDJSON the line number. Blank lines are never candidates.
 */
import { cellValue, CsvSyntaxError, csvTable } from '../csv';
import { UnsupportedMediaTypeError, ValidationError, type ErrorCode } from '../errors';
import { parse } from '../validate';
import { CreateCandidateBody } from '../api/candidates';
import { candidate } from '../entities/candidate';

/** The only columns (or NDJSON keys) an import file may have: the candidate's importable fields. */
export const IMPORT_COLUMNS = candidate.importColumns;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 10_000;
export const IMPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The codes a row's error may have: the API's own, plus the import's. */
export type RowErrorCode = ErrorCode | 'invalid_row';

/** Why a row was not imported; `field` names the column at fault when there is one. */
export interface RowError {
  field: string | null;
  code: RowErrorCode;
  message: string;
  /** Skipped (a duplicate) rather than failed. */
  skipped?: true;
}

/** One row of the file after validation: the create body it stands for, or why it has none. */
export interface ImportRow {
  row: number;
  body?: CreateCandidateBody;
  error?: RowError;
  /**
   * The row's email is an earlier valid row's, on another requisition: the same person, whose
   * candidate this row joins once that row is written (it is created alone, after it).
   */
  repeat?: true;
}

const MEDIA_TYPES: Record<string, ImportFormat> = { 'text/csv': 'csv', 'application/x-ndjson': 'ndjson' };

/** The file format a Content-Type names; anything else is a 415. Only UTF-8 is read. */
export function formatOf(contentType: string | undefined): ImportFormat {
  const [type = '', ...params] = (contentType ?? '').split(';').map((s) => s.trim().toLowerCase());
  const format = MEDIA_TYPES[type];
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length);
  if (!format || (charset !== undefined && charset.replace(/"/g, '') !== 'utf-8')) {
    throw new UnsupportedMediaTypeError('Content-Type must be text/csv or application/x-ndjson (UTF-8)');
  }
  return format;
}

const KNOWN = new Set<string>(IMPORT_COLUMNS);
const list = (names: string[]) =>
  names
    .slice(0, 5)
    .map((n) => JSON.stringify(n.slice(0, 64)))
    .join(', ') + (names.length > 5 ? ', …' : '');

function refuseUnknown(unknown: string[], what: 'column' | 'key') {
  if (!unknown.length) return;
  throw new ValidationError(
    `unknown ${what}${unknown.length > 1 ? 's' : ''} ${list(unknown)}; the ${what}s are ${IMPORT_COLUMNS.join(', ')}`,
    { field: unknown[0]!.slice(0, 64) },
  );
}

const tooMany = (rows: number) =>
  new ValidationError(`the file has ${rows} rows; an import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en')}`);

type Raw = { row: number; values?: Record<string, unknown>; error?: RowError };

/**
 * CSV records with the header checked; cells as strings, an empty cell is no value. The rows keep
 * the numbers a spreadsheet shows (lib/csv.ts): a blank line is no candidate, but it is a row.
 */
function csvRows(text: string): Raw[] {
  let table: ReturnType<typeof csvTable>;
  try {
    table = csvTable(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new ValidationError(err.message);
    throw err;
  }
  const { header: head, rows: data } = table;
  if (!head) throw new ValidationError('the file is empty; its first row must name the columns');
  const columns = head.cells.map((c) => c.trim().toLowerCase());
  refuseUnknown(
    head.cells.filter((_, i) => !KNOWN.has(columns[i]!)),
    'column',
  );
  const twice = columns.find((c, i) => columns.indexOf(c) !== i);
  if (twice) throw new ValidationError(`the column ${JSON.stringify(twice)} appears twice`, { field: twice });
  if (!columns.includes('name'))
    throw new ValidationError('the file has no name column; the first row must name the columns', { field: 'name' });
  return data.map(({ row, cells }): Raw => {
    if (cells.slice(columns.length).some((c) => c.trim()))
      return {
        row,
        error: { field: null, code: 'invalid_row', message: `row has ${cells.length} cells; the header has ${columns.length}` },
      };
    const values: Record<string, unknown> = {};
    columns.forEach((c, j) => {
      const cell = cells[j];
      if (cell !== undefined && cell.trim() !== '') values[c] = cellValue(cell);
    });
    return { row, values };
  });
}

/** NDJSON lines; every line's keys are checked before any row is judged. */
function ndjsonRows(text: string): Raw[] {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const rows: Raw[] = [];
  const unknown = new Set<string>();
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) return;
    const row = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      rows.push({ row, error: { field: null, code: 'invalid_row', message: 'line is not valid JSON' } });
      return;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      rows.push({ row, error: { field: null, code: 'invalid_row', message: 'line is not a JSON object' } });
      return;
    }
    const values: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (!KNOWN.has(k)) unknown.add(k);
      else if (v !== null && v !== '') values[k] = v;
    }
    rows.push({ row, values });
  });
  refuseUnknown([...unknown], 'key');
  return rows;
}

/** Case blind and accent blind, as the search index compares emails. */
export const normalizeEmail = (email: string) => email.trim().normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * Read and validate a whole file: its rows with the create body each stands for (the same schema
 * and sentences as POST /candidates), or the error that keeps it out. A row whose email (case
 * blind) a valid earlier row already has is the same person: on the same requisition (or again
 * without one) it is skipped as a duplicate candidate, on another one it is their next candidate
 * (`repeat`). Refusals of the file as a
 * whole (header, size, row count) throw a ValidationError before any row is judged.
 */
export function readImportFile(text: string, format: ImportFormat): ImportRow[] {
  const raw = format === 'csv' ? csvRows(text) : ndjsonRows(text);
  if (!raw.length) throw new ValidationError('the file has no rows to import');
  if (raw.length > MAX_IMPORT_ROWS) throw tooMany(raw.length);
  // Per email: the first valid row on each requisition (`` for none).
  const firstRowOf = new Map<string, Map<string, number>>();
  return raw.map(({ row, values, error }): ImportRow => {
    if (error) return { row, error };
    let body: CreateCandidateBody;
    try {
      body = parse(CreateCandidateBody, values, 'body');
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      return { row, error: { field: err.field ?? null, code: err.code, message: err.message } };
    }
    if (body.email !== undefined) {
      const email = normalizeEmail(body.email);
      const rowsOf = firstRowOf.get(email) ?? new Map<string, number>();
      const first = rowsOf.get(body.req_id ?? '');
      if (first !== undefined) {
        const where = body.req_id ? 'on the same requisition' : 'without a requisition';
        return {
          row,
          error: {
            field: body.req_id ? 'req_id' : 'email',
            code: 'duplicate_candidate',
            message: `this person (the same email) is in row ${first} of this file ${where}`,
            skipped: true,
          },
        };
      }
      rowsOf.set(body.req_id ?? '', row);
      firstRowOf.set(email, rowsOf);
      if (rowsOf.size > 1) return { row, body, repeat: true };
    }
    return { row, body };
  });
}

/** Rows packed into chunk items: at most this many rows, and this many bytes of JSON, per item. */
export const CHUNK_ROWS = 500;
export const CHUNK_BYTES = 300 * 1024;

/** The rows in order, cut so that each chunk stays far below DynamoDB's 400 KB item limit. */
export function chunkRows(rows: ImportRow[]): ImportRow[][] {
  const chunks: ImportRow[][] = [];
  let current: ImportRow[] = [];
  let bytes = 0;
  for (const r of rows) {
    const size = Buffer.byteLength(JSON.stringify(r));
    if (current.length && (current.length >= CHUNK_ROWS || bytes + size > CHUNK_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(r);
    bytes += size + 1;
  }
  if (current.length) chunks.push(current);
  return chunks;
}
