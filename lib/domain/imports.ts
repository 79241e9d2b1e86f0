/**
 * Bulk import of candidates. The POST reads and validates the whole file, stores it as chunk
 * items and queues the job; the worker (functions/import-worker.ts) creates the rows a slice at a
 * time, each row exactly as POST /candidates would (same schema, same requisition rules, the
 * store's insertCandidate with its counters), and counts each slice once.
 *
 * Nothing twice: a row's candidate id is derived from the job and the row, so a row retried after
 * a crash hits the existing candidate and counts as created; the job's `next_row` moves only by a
 * conditional update from where the slice started; one import runs per workspace (a lock item),
 * so two imports never race on one email.
 */
import { createHash } from 'node:crypto';
import { AppError, ConflictError, NotFoundError, RequisitionNotOpenError, ValidationError } from '../errors';
import { candidateIdsByEmail } from '../imports/emails';
import { chunkRows, type ImportFormat, type ImportRow, MAX_IMPORT_BYTES, readImportFile, type RowError } from '../imports/parse';
import { queueImport } from '../imports/queue';
import { newId, nowIso } from '../ids';
import { logger } from '../logger';
import { DRY_RUN_ERRORS, type ImportDryRun, type ImportErrorsQuery, type ImportJob, type ImportRowError } from '../schemas';
import { getCandidate, insertCandidate, type CandidateRecord } from '../store/candidates';
import {
  advanceImportJob,
  createImportJob,
  discardImportJob,
  finishImportJob,
  getChunk,
  getImportJob,
  type ImportJobItem,
  jobOfFile,
  putRowErrors,
  queryRowErrors,
  rowErrorPageKey,
  type SliceCounts,
  startImportJob,
  type StoredRowError,
  takeImportLock,
} from '../store/imports';
import { getRequisition, type RequisitionItem } from '../store/requisitions';
import { decodeCursor, encodeCursor } from './cursor';
import type { Principal } from './principal';

/** The job as the API shows it. */
export function toImportJob(j: ImportJobItem): ImportJob {
  return {
    id: j.id,
    dry_run: false,
    status: j.status,
    format: j.format,
    counts: { total: j.total, created: j.created, skipped: j.skipped, failed: j.failed },
    processed: j.created + j.skipped + j.failed,
    created_at: j.created_at,
    updated_at: j.updated_at,
    completed_at: j.completed_at ?? null,
  };
}

/**
 * The candidate id of a job's row: a UUIDv7 whose time is the job's creation and whose random
 * bits are the row number then a hash of (job, row). The same row of the same job always gets the
 * same id, and a job's candidates sort in row order, next to each other.
 */
export function importCandidateId(jobId: string, createdMs: number, row: number): string {
  const b = Buffer.alloc(16);
  b.writeUIntBE(createdMs, 0, 6);
  const h = createHash('sha256').update(`${jobId}:${row}`).digest();
  b[6] = 0x70 | ((row >> 10) & 0x0f);
  b[7] = (row >> 2) & 0xff;
  b[8] = 0x80 | ((row & 0x03) << 4) | (h[0]! & 0x0f);
  h.copy(b, 9, 1, 8);
  const x = b.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

type Outcome = { kind: 'created' } | { kind: 'skipped' | 'failed'; error: RowError };

const failed = (err: AppError): Outcome => ({ kind: 'failed', error: { field: err.field ?? null, code: err.code, message: err.message } });

/** Requisitions as read once per slice (or dry run); the insert checks `open` again in its own condition. */
type Requisitions = (id: string) => Promise<RequisitionItem | undefined>;
const requisitionReader = (tenantId: string): Requisitions => {
  const seen = new Map<string, Promise<RequisitionItem | undefined>>();
  return (id) => {
    if (!seen.has(id)) seen.set(id, getRequisition(tenantId, id));
    return seen.get(id)!;
  };
};

/**
 * One row's fate. Without `candidateId` (a dry run) nothing is written and `created` means
 * "would be created".
 */
async function importRow(tenantId: string, r: ImportRow, reqs: Requisitions, candidateId?: string): Promise<Outcome> {
  if (r.error) return { kind: r.error.skipped ? 'skipped' : 'failed', error: r.error };
  const input = r.body!;
  if (input.email !== undefined) {
    const ids = await candidateIdsByEmail(tenantId, input.email);
    // This very row, created by an earlier run of the job that stopped before counting it.
    if (candidateId && ids.includes(candidateId)) return { kind: 'created' };
    if (ids.length) {
      return {
        kind: 'skipped',
        error: {
          field: 'email',
          code: 'duplicate_email',
          message: 'email is already used by a candidate in this workspace',
          skipped: true,
        },
      };
    }
  }
  const req = input.req_id ? await reqs(input.req_id) : undefined;
  if (input.req_id) {
    if (!req) return failed(new ValidationError('req_id names no requisition in this workspace', { field: 'req_id' }));
    if (req.status !== 'open') return failed(new RequisitionNotOpenError(req.status));
  }
  if (!candidateId) return { kind: 'created' };
  const now = nowIso();
  const record: CandidateRecord = {
    id: candidateId,
    name: input.name,
    email: input.email,
    phone: input.phone,
    resume_url: input.resume_url,
    stage: input.stage,
    req_id: input.req_id,
    req_title: req?.title,
    created_at: now,
    updated_at: now,
    stage_entered_at: now,
  };
  try {
    await insertCandidate(tenantId, record, req as unknown as Record<string, unknown> | undefined);
    return { kind: 'created' };
  } catch (err) {
    if (err instanceof ConflictError && err.code === 'conflict') {
      // The id exists: an earlier run created this row. Anything else is contention: the slice is retried.
      if (await getCandidate(tenantId, candidateId)) return { kind: 'created' };
      throw err;
    }
    if (err instanceof NotFoundError)
      return failed(new ValidationError('req_id names no requisition in this workspace', { field: 'req_id' }));
    // The requisition closed or filled meanwhile (409 requisition_not_open, headcount_reached).
    if (err instanceof AppError && err.status < 500) return failed(err);
    throw err;
  }
}

/** Run `fn` over `items`, `limit` at a time, keeping the order of the results. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** Rows judged at once: each is an email lookup and a transaction on the workspace's counters. */
const ROW_CONCURRENCY = 8;

const asRowError = (row: number, o: Outcome): ImportRowError | undefined =>
  o.kind === 'created' ? undefined : { row, outcome: o.kind, field: o.error.field, code: o.error.code, error: o.error.message };

/** A dry run: every row judged as the worker would, nothing written. */
async function dryRun(tenantId: string, format: ImportFormat, rows: ImportRow[]): Promise<ImportDryRun> {
  const reqs = requisitionReader(tenantId);
  const outcomes = await mapLimit(rows, ROW_CONCURRENCY * 2, (r) => importRow(tenantId, r, reqs));
  const counts = { total: rows.length, created: 0, skipped: 0, failed: 0 };
  const errors: ImportRowError[] = [];
  outcomes.forEach((o, i) => {
    counts[o.kind]++;
    const e = asRowError(rows[i]!.row, o);
    if (e) errors.push(e);
  });
  return { dry_run: true, format, counts, errors: errors.slice(0, DRY_RUN_ERRORS), errors_truncated: errors.length > DRY_RUN_ERRORS };
}

export type CreateImportResult = { kind: 'dry_run'; result: ImportDryRun } | { kind: 'job'; job: ImportJob; fresh: boolean };

/**
 * POST /candidates/imports: the whole file is read and checked first (a refused header, size or
 * row count writes nothing); a dry run stops there. The same bytes posted again within 7 days
 * get the earlier job, not a second import.
 */
export async function createImport(
  p: Principal,
  input: { text: string; format: ImportFormat; dryRun: boolean },
): Promise<CreateImportResult> {
  const { tenantId } = p;
  if (Buffer.byteLength(input.text) > MAX_IMPORT_BYTES) {
    throw new AppError(
      413,
      `the file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB; split it into several imports`,
      {},
      {
        code: 'payload_too_large',
      },
    );
  }
  const rows = readImportFile(input.text, input.format);
  if (input.dryRun) return { kind: 'dry_run', result: await dryRun(tenantId, input.format, rows) };
  const digest = createHash('sha256').update(`${input.format}\n${input.text}`).digest('hex');
  const earlier = await jobOfFile(tenantId, digest);
  const earlierJob = earlier && (await getImportJob(tenantId, earlier));
  if (earlierJob) return { kind: 'job', job: toImportJob(earlierJob), fresh: false };
  const chunks = chunkRows(rows);
  const at = nowIso();
  const job = {
    id: newId(),
    format: input.format,
    total: rows.length,
    chunk_rows: chunks.map((c) => c.length),
    created_ms: Date.parse(at),
    digest,
    created_at: at,
    updated_at: at,
  };
  const stored = await createImportJob(tenantId, job, chunks);
  if (!stored.created) {
    const other = await getImportJob(tenantId, stored.existing);
    if (!other) throw new ConflictError('the same file is being imported right now; try again');
    return { kind: 'job', job: toImportJob(other), fresh: false };
  }
  try {
    await queueImport({ tenantId, jobId: job.id });
  } catch (err) {
    // Not queued, so never run: leave nothing behind, and the same file can be posted again.
    await discardImportJob(tenantId, job);
    throw err;
  }
  logger.info('import queued', { job_id: job.id, rows: rows.length, chunks: chunks.length, format: input.format });
  return {
    kind: 'job',
    job: toImportJob({ ...job, status: 'queued', created: 0, skipped: 0, failed: 0, next_row: 0 }),
    fresh: true,
  };
}

export async function getImport(p: Principal, id: string): Promise<ImportJob> {
  const job = await getImportJob(p.tenantId, id);
  if (!job) throw new NotFoundError('import');
  return toImportJob(job);
}

/** The job's failed and skipped rows in row order, paged with a cursor. */
export async function listImportErrors(
  p: Principal,
  id: string,
  q: ImportErrorsQuery,
): Promise<{ items: ImportRowError[]; next_cursor: string | null }> {
  const { tenantId } = p;
  const job = await getImportJob(tenantId, id);
  if (!job) throw new NotFoundError('import');
  const scope = { tenantId, filters: JSON.stringify(['import-errors', id]), key: rowErrorPageKey(tenantId) };
  const startKey = q.cursor !== undefined ? decodeCursor(q.cursor, scope) : undefined;
  if (startKey && !startKey.SK!.startsWith(`IMPORT#${id}#E#`))
    throw new ValidationError('cursor is not valid: it belongs to another list; start again without it', { field: 'cursor' });
  const page = await queryRowErrors(tenantId, id, q.limit, startKey);
  const last = page.more && page.items.length ? page.items.at(-1)!.key : undefined;
  return { items: page.items.map(({ key: _k, ...e }) => e), next_cursor: last ? encodeCursor(scope, last) : null };
}

// ---- the worker ------------------------------------------------------------------------------

/** Rows counted per job update: the progress a GET sees moves this many at a time. */
export const SLICE_ROWS = 100;
/** The lock's lease, renewed every slice: a crashed run frees the workspace this long after. */
export const LOCK_LEASE_MS = 2 * 60_000;
/** Seconds before a busy workspace's job is tried again. */
export const BUSY_RETRY_S = 5;
/** A run stops this long before its time is up and queues the rest of the job. */
const STOP_BEFORE_MS = 20_000;

export interface RunOptions {
  timeLeftMs(): number;
  /** Queue another run of this job (after `delayS`). */
  requeue(delayS: number): Promise<void>;
}

/** Where row `index` of the job sits: its chunk and its place in that chunk. */
function locate(job: ImportJobItem, index: number) {
  let start = 0;
  for (let n = 0; n < job.chunk_rows.length; n++) {
    const size = job.chunk_rows[n]!;
    if (index < start + size) return { chunk: n, offset: index - start, size };
    start += size;
  }
  throw new Error(`import ${job.id}: row index ${index} is past its chunks`);
}

/**
 * One run of a job: from where its item says, slice after slice, until the job is done or the
 * run's time is nearly up (then the rest is queued). Safe to run twice at once or again after a
 * crash: rows are created once (their ids), and counted once (the conditional advance).
 */
export async function runImport(
  tenantId: string,
  jobId: string,
  opts: RunOptions,
): Promise<'completed' | 'failed' | 'waiting' | 'continued' | 'gone'> {
  let job = await getImportJob(tenantId, jobId);
  if (!job || job.status === 'completed' || job.status === 'failed') return 'gone';
  if (!(await takeImportLock(tenantId, jobId, LOCK_LEASE_MS))) {
    await opts.requeue(BUSY_RETRY_S);
    return 'waiting';
  }
  await startImportJob(tenantId, jobId, nowIso());
  const chunks = new Map<number, ImportRow[] | undefined>();
  for (;;) {
    job = (await getImportJob(tenantId, jobId))!;
    if (job.status !== 'running' && job.status !== 'queued') return 'gone';
    if (job.next_row >= job.total) {
      await finishImportJob(tenantId, job, { status: 'completed' }, nowIso());
      logger.info('import completed', { job_id: jobId, total: job.total, created: job.created, skipped: job.skipped, failed: job.failed });
      return 'completed';
    }
    if (opts.timeLeftMs() < STOP_BEFORE_MS) {
      await opts.requeue(0);
      return 'continued';
    }
    const { chunk, offset, size } = locate(job, job.next_row);
    if (!chunks.has(chunk)) chunks.set(chunk, await getChunk(tenantId, jobId, chunk));
    const rows = chunks.get(chunk);
    if (!rows) {
      await finishImportJob(tenantId, job, { status: 'failed', error: 'the file expired before the import ran; post it again' }, nowIso());
      logger.warn('import failed: its file expired', { job_id: jobId });
      return 'failed';
    }
    const slice = rows.slice(offset, Math.min(size, offset + SLICE_ROWS));
    const reqs = requisitionReader(tenantId);
    const outcomes = await mapLimit(slice, ROW_CONCURRENCY, (r) =>
      importRow(tenantId, r, reqs, importCandidateId(jobId, job!.created_ms, r.row)),
    );
    const counts: SliceCounts = { created: 0, skipped: 0, failed: 0 };
    const errors: StoredRowError[] = [];
    outcomes.forEach((o, i) => {
      counts[o.kind]++;
      if (o.kind !== 'created') errors.push({ row: slice[i]!.row, ...o.error });
    });
    await putRowErrors(tenantId, jobId, errors);
    await advanceImportJob(tenantId, jobId, job.next_row, job.next_row + slice.length, counts, nowIso());
    if (!(await takeImportLock(tenantId, jobId, LOCK_LEASE_MS))) {
      // The lease ran out and another job took the workspace: this one waits its turn again.
      await opts.requeue(BUSY_RETRY_S);
      return 'waiting';
    }
  }
}

/** Give a job up: it ends `failed` with the sentence, and the workspace is free for the next import. */
export async function failImport(tenantId: string, jobId: string, why: string): Promise<void> {
  const job = await getImportJob(tenantId, jobId);
  if (!job || job.status === 'completed' || job.status === 'failed') return;
  await finishImportJob(tenantId, job, { status: 'failed', error: why }, nowIso());
}
