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
import { AppError, ConflictError, NotFoundError, ValidationError } from '../errors';
import { chunkRows, type ImportFormat, type ImportRow, MAX_IMPORT_BYTES, readImportFile } from '../imports/parse';
import { queueImport } from '../imports/queue';
import { newId, nowIso } from '../ids';
import { logger } from '../logger';
import { DRY_RUN_ERRORS, type ImportDryRun, type ImportErrorsQuery, type ImportJob, type ImportRowError } from '../api/imports';
import {
  createImportJob,
  discardImportJob,
  getImportJob,
  type ImportJobItem,
  jobOfFile,
  queryRowErrors,
  rowErrorPageKey,
} from '../store/imports';
import { decodeCursor, encodeCursor } from './cursor';
import type { EmailCandidate } from '../store/search';
import { emailOwners, judgeRow, type Outcome, requisitionReader, ROW_CONCURRENCY } from './import-rows';
import { auditActorOf, auditBy, type Principal } from './principal';

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

/** Run `fn` over `items`, `limit` at a time, keeping the order of the results. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

const asRowError = (row: number, o: Outcome): ImportRowError | undefined =>
  o.kind === 'created' ? undefined : { row, outcome: o.kind, field: o.error.field, code: o.error.code, error: o.error.message };

/** Rows whose emails a dry run reads together (the worker's slice). */
const DRY_RUN_EMAIL_ROWS = 250;

/** A dry run: every row judged as the worker would, nothing written. */
async function dryRun(tenantId: string, format: ImportFormat, rows: ImportRow[]): Promise<ImportDryRun> {
  const reqs = requisitionReader(tenantId);
  // The emails a slice's worth at a time: the worker's reads, and as many rows per read.
  const owners = new Map<string, EmailCandidate[]>();
  for (let i = 0; i < rows.length; i += DRY_RUN_EMAIL_ROWS)
    for (const [e, ids] of await emailOwners(tenantId, rows.slice(i, i + DRY_RUN_EMAIL_ROWS))) owners.set(e, ids);
  const outcomes = await mapLimit(rows, ROW_CONCURRENCY * 2, async (r): Promise<Outcome> => {
    const judged = await judgeRow(r, owners, reqs);
    return judged.kind === 'create' ? { kind: 'created' } : judged;
  });
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
    // The rows' audit records name who posted the file, though the worker creates them.
    actor: auditActorOf(p),
    ...(p.request && { request: p.request }),
  };
  const stored = await createImportJob(
    tenantId,
    job,
    chunks,
    auditBy(p, 'import.created', { type: 'import', id: job.id }, [
      { field: 'format', after: input.format },
      { field: 'rows', after: rows.length },
    ]),
  );
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
