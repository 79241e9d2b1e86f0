/**
 * The import worker's side of a job (functions/import-worker.ts): slices of rows created several
 * per transaction, each as POST /candidates would create it, and counted once. Apart from lib/domain/imports.ts
 * so that the import's API function does not bundle the candidate writes. The layering is one-way:
 * lib/imports holds the file reader and the queue, and imports nothing from lib/domain.
 */
import { createHash } from 'node:crypto';
import { config } from '../config';
import { type ImportMessage, queueImport } from '../imports/queue';
import type { Invocation } from '../records';
import { candidate } from '../entities/candidate';
import { auditChanges } from '../entity';
import type { AuditEntry } from '../store/audit';
import { emailOwners, failed, judgeRow, type Outcome, requisitionReader, ROW_CONCURRENCY } from './import-rows';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../errors';
import { newId, nowIso } from '../ids';
import { logger } from '../logger';
import type { NewCandidate } from '../store/candidate-batch';
import { insertCandidateGroups } from './candidate-writes';
import { getCandidate, type CandidateRecord } from '../store/candidates';
import {
  advanceImportJob,
  deleteChunk,
  finishImportJob,
  getChunk,
  getImportJob,
  type ImportJobItem,
  putRowErrors,
  type SliceCounts,
  startImportJob,
  type StoredRowError,
  takeImportLock,
} from '../store/imports';
import type { ImportRow } from '../imports/parse';

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

/** A created row's candidate, as POST /candidates would make it. */
function recordOf(r: ImportRow, candidateId: string, reqTitle: string | undefined): CandidateRecord {
  const input = r.body!;
  const now = nowIso();
  return {
    id: candidateId,
    // The row's create body: the declaration's create fields, and only them.
    ...input,
    // A new person of its own, written with it; a row that joins a known person is matched alone.
    person_id: newId(),
    source: 'import',
    req_title: reqTitle,
    created_at: now,
    updated_at: now,
    stage_entered_at: now,
  };
}

/** What an insert that went alone threw, as the row's outcome; errors of ours (5xx) fail the slice, which is retried. */
async function outcomeOfError(tenantId: string, candidateId: string, err: unknown): Promise<Outcome> {
  // The row's own candidate holds its person's place on the requisition: an earlier run created it.
  if (err instanceof ConflictError && err.code === 'duplicate_candidate') {
    if (err.existingId === candidateId) return { kind: 'created' };
    // Someone made the same person a candidate there first (the race the judgement could not see): a duplicate, as judged ones are.
    return { kind: 'skipped', error: { field: err.field ?? null, code: err.code, message: err.message, skipped: true } };
  }
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

/**
 * `fn` over `items`, `limit` at a time, each item's result as its own promise, so a caller can use
 * the first results while the later ones are still running.
 */
function eachLimited<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R>[] {
  const settle: { resolve(v: R): void; reject(e: unknown): void }[] = [];
  const results = items.map(
    (_, i) =>
      new Promise<R>((resolve, reject) => {
        settle[i] = { resolve, reject };
      }),
  );
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i).then(settle[i]!.resolve, settle[i]!.reject);
    }
  };
  for (let w = 0; w < Math.min(limit, items.length); w++) void worker();
  // A rejection the caller never reaches (an earlier group failed the slice) must not end the process.
  for (const r of results) r.catch(() => {});
  return results;
}

/**
 * A row's audit record, as POST /candidates writes it, by whoever posted the file, naming the
 * import it came from.
 */
const createdAudit = (job: Pick<ImportJobItem, 'id' | 'actor' | 'request'>, record: CandidateRecord): AuditEntry => ({
  action: 'candidate.created',
  actor: job.actor!,
  target: { type: 'candidate', id: record.id },
  changes: [...auditChanges(candidate, undefined, { ...record }), { field: 'import_id', after: job.id }],
  ...(job.request && { request: job.request }),
});

/**
 * A slice's rows: each judged (its own error, its person already on its requisition, its
 * requisition), then those to create inserted together, a transaction's worth at a time
 * (insertCandidateGroups), each as POST /candidates would create it: a row of a new email with a
 * new person in the batch, a row whose email is a known person's (or an earlier row's, on another
 * requisition: readImportFile's `repeat`) alone, matched to them. A row found created by an
 * earlier run counts as created. The slice's emails are read together before any of its rows is
 * written (emailOwners: a few consistent Queries for the whole slice); a repeat row waits for its
 * earlier one, as the groups are written in row order.
 */
async function importSlice(
  tenantId: string,
  job: Pick<ImportJobItem, 'id' | 'created_ms' | 'actor' | 'request'>,
  slice: ImportRow[],
): Promise<Outcome[]> {
  const reqs = requisitionReader(tenantId);
  const ids = slice.map((r) => importCandidateId(job.id, job.created_ms, r.row));
  const owners = await emailOwners(tenantId, slice);
  const judging = eachLimited(slice, ROW_CONCURRENCY, (r, i) => judgeRow(r, owners, reqs, ids[i]));
  const outcomes: Outcome[] = [];
  const creates: { at: number; entry: NewCandidate }[] = [];
  for (let i = 0; i < slice.length; i++) {
    const j = await judging[i]!;
    if (j.kind !== 'create') {
      outcomes[i] = j;
      continue;
    }
    const record = recordOf(slice[i]!, ids[i]!, j.req?.title);
    const audit = job.actor && createdAudit(job, record);
    creates.push({ at: i, entry: { record, reqSeen: j.req as unknown as Record<string, unknown> | undefined, audit, alone: j.joins } });
  }
  // The store sizes the transactions; each is written before the next starts.
  for await (const { rows, results } of insertCandidateGroups(
    tenantId,
    creates.map((c) => c.entry),
  )) {
    for (const [n, res] of results) {
      const i = creates[n]!.at;
      outcomes[i] = res.kind === 'error' ? await outcomeOfError(tenantId, ids[i]!, res.error) : { kind: 'created' };
    }
    // The local test hook of lib/config.ts (importHoldAtRow): the restart test restarts npm start there.
    const holdAtRow = config.importHoldAtRow;
    if (holdAtRow !== undefined && rows.some((n) => slice[creates[n]!.at]!.row >= holdAtRow)) {
      logger.warn('import held by TP_IMPORT_HOLD_AT_ROW', { job_id: job.id });
      await new Promise(() => {});
    }
  }
  return outcomes;
}

/** Rows counted per job update: the progress a GET sees moves this many at a time. */
export const SLICE_ROWS = 250;
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
    if (!chunks.has(chunk)) {
      // One chunk in memory at a time: a run of a 5 MB file never holds the whole file.
      chunks.clear();
      chunks.set(chunk, await getChunk(tenantId, jobId, chunk));
    }
    const rows = chunks.get(chunk);
    if (!rows) {
      chunks.delete(chunk);
      // Another run of the job counted this chunk's last rows and deleted it meanwhile: go on from where it got.
      if ((await getImportJob(tenantId, jobId))?.next_row !== job.next_row) continue;
      await finishImportJob(tenantId, job, { status: 'failed', error: 'the file expired before the import ran; post it again' }, nowIso());
      logger.warn('import failed: its file expired', { job_id: jobId });
      return 'failed';
    }
    const slice = rows.slice(offset, Math.min(size, offset + SLICE_ROWS));
    const outcomes = await importSlice(tenantId, job, slice);
    const counts: SliceCounts = { created: 0, skipped: 0, failed: 0 };
    const errors: StoredRowError[] = [];
    outcomes.forEach((o, i) => {
      counts[o.kind]++;
      if (o.kind !== 'created') errors.push({ row: slice[i]!.row, ...o.error });
    });
    await putRowErrors(tenantId, jobId, errors);
    const counted = await advanceImportJob(tenantId, jobId, job.next_row, job.next_row + slice.length, counts, nowIso());
    if (counted && offset + slice.length === size) {
      // The chunk's rows are all counted: no run reads it again, and its personal data goes now,
      // not when the job ends (the job's end and the chunk's TTL are the backstops).
      await deleteChunk(tenantId, jobId, chunk);
      chunks.delete(chunk);
    }
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

/**
 * One import-queue message (functions/import-worker.ts runs it with queueHandler, lib/lambda.ts):
 * import queue -> candidates. One message is one run of a job (batch size 1); a run that nears
 * its timeout queues the rest of the job itself, and so does a run that fails (with a delay, up
 * to MAX_FAILURES in a row, then the job fails). A run that crashes outright (out of memory,
 * timeout) leaves its message to come back after the visibility timeout. Every run resumes from
 * the job item (runImport). A message that is not an import message fails alone, and the queue's
 * redrive sets it aside.
 */
/** Failed runs in a row after which the job is given up (the rows counted so far stay created). */
export const MAX_RUN_FAILURES = 5;

export async function importRun(m: ImportMessage, invocation: Invocation): Promise<void> {
  const job = { tenantId: m.tenantId, jobId: m.jobId };
  logger.appendKeys({ tenant_id: m.tenantId });
  try {
    const outcome = await runImport(m.tenantId, m.jobId, {
      timeLeftMs: () => invocation.timeLeftMs(),
      requeue: (delayS) => queueImport(job, delayS),
    });
    logger.info('import run ended', { job_id: m.jobId, outcome });
  } catch (err) {
    // Name and message only: SDK errors can carry items, and rows are personal data.
    const { name, message } = err as Error;
    const failures = (m.failures ?? 0) + 1;
    logger.error('import run failed', { job_id: m.jobId, failures, error: { name, message } });
    if (failures >= MAX_RUN_FAILURES)
      await failImport(m.tenantId, m.jobId, 'the import stopped after repeated internal errors; the rows counted were created');
    else await queueImport({ ...job, failures }, 10 * failures);
  } finally {
    logger.removeKeys(['tenant_id']);
  }
}
