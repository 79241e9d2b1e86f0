/**
 * Bulk imports in the table: the job (`IMPORT#<job>`), its file as chunk items
 * (`IMPORT#<job>#C#<n>`, type `import_chunk`: personal data, kept only while the job needs them),
 * its row errors (`IMPORT#<job>#E#<row>`, type `import_error`: row number, column, code and
 * sentence, never a cell's value), the workspace's lock (`IMPORT_LOCK`) and a pointer from each
 * file's digest to its job (`IMPORT_FILE#<digest>`).
 */
import { auditPuts, type AuditActor, type AuditEntry, type AuditRequest } from './audit';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ImportFormat, ImportRow, RowError } from '../imports/parse';
import { ddb, tableName } from './client';
import { type Item, num, oneOf, optStr, str } from './codec';
import { type Key, keys, TABLE_DEF, type PageKeyShape } from './table';
import { cancellationReasons, itemSeen, unlessConditionFails } from './tx';
import { $add, update } from './update';

export const IMPORT_JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ImportJobStatus = (typeof IMPORT_JOB_STATUSES)[number];

/** The file's chunks outlive any normal job by far; a job stuck that long fails (its file is gone). */
export const CHUNK_TTL_S = 3 * 86_400;
/** The job and its row errors stay readable this long. */
export const JOB_TTL_S = 30 * 86_400;
/** The same bytes posted again within this time get the earlier job. */
export const FILE_TTL_S = 7 * 86_400;

export interface ImportJobItem {
  id: string;
  status: ImportJobStatus;
  format: ImportFormat;
  total: number;
  created: number;
  skipped: number;
  failed: number;
  /** Index of the first row not done yet: rows before it are counted. */
  next_row: number;
  /** Rows per chunk item, in order. */
  chunk_rows: number[];
  /** Milliseconds of `created_at`: the time part of the job's candidate ids. */
  created_ms: number;
  digest: string;
  created_at: string;
  updated_at: string;
  completed_at?: string;
  error?: string;
  /** Who posted the import: the actor of its rows' audit records (absent on jobs from before the audit log). */
  actor?: AuditActor;
  /** Where the import was posted from, for the same records. */
  request?: AuditRequest;
}

/**
 * The import's keys: apart from `keys` (lib/store/table.ts), which every function bundles, so that
 * only the import's functions carry them.
 */
export const importKeys = {
  /**
   * A bulk import: the job, then its file's chunks and its row errors right after it in sort
   * order (`IMPORT#<job>#C#…`, `IMPORT#<job>#E#…`), so erasure and cleanup find them by prefix.
   */
  importJob: (tenantId: string, jobId: string): Key => ({ PK: keys.tenantPartition(tenantId), SK: `IMPORT#${jobId}` }),
  importChunk: (tenantId: string, jobId: string, n: number): Key => ({
    PK: keys.tenantPartition(tenantId),
    SK: `IMPORT#${jobId}#C#${String(n).padStart(4, '0')}`,
  }),
  importChunkPrefix: (jobId: string) => `IMPORT#${jobId}#C#`,
  importError: (tenantId: string, jobId: string, row: number): Key => ({
    PK: keys.tenantPartition(tenantId),
    SK: `IMPORT#${jobId}#E#${String(row).padStart(6, '0')}`,
  }),
  importErrorPrefix: (jobId: string) => `IMPORT#${jobId}#E#`,
  /** The workspace's import lock: one running import per workspace is one condition on it. */
  importLock: (tenantId: string): Key => ({ PK: keys.tenantPartition(tenantId), SK: 'IMPORT_LOCK' }),
  /** A file's digest pointing at the job that imported it: the same bytes posted again get that job. */
  importFile: (tenantId: string, digest: string): Key => ({ PK: keys.tenantPartition(tenantId), SK: `IMPORT_FILE#${digest}` }),
};

const ENTITY = 'import_job';

export function importJobFromItem(i: Item): ImportJobItem {
  const completed_at = optStr(i, 'completed_at', ENTITY);
  const error = optStr(i, 'error', ENTITY);
  return {
    id: str(i, 'id', ENTITY),
    status: oneOf(i, 'status', IMPORT_JOB_STATUSES, ENTITY),
    format: oneOf(i, 'format', ['csv', 'ndjson'] as const, ENTITY),
    total: num(i, 'total', ENTITY),
    created: num(i, 'n_created', ENTITY, 0),
    skipped: num(i, 'n_skipped', ENTITY, 0),
    failed: num(i, 'n_failed', ENTITY, 0),
    next_row: num(i, 'next_row', ENTITY, 0),
    chunk_rows: (i.chunk_rows as number[]).map(Number),
    created_ms: num(i, 'created_ms', ENTITY),
    digest: str(i, 'digest', ENTITY),
    created_at: str(i, 'created_at', ENTITY),
    updated_at: str(i, 'updated_at', ENTITY),
    ...(completed_at && { completed_at }),
    ...(error && { error }),
    ...(i.actor !== undefined && { actor: i.actor as AuditActor }),
    ...(i.request !== undefined && { request: i.request as AuditRequest }),
  };
}

const epoch = (s: number) => Math.floor(Date.now() / 1000) + s;

export async function getImportJob(tenantId: string, jobId: string): Promise<ImportJobItem | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: importKeys.importJob(tenantId, jobId), ConsistentRead: true }),
  );
  return Item ? importJobFromItem(Item) : undefined;
}

/** The job that imported these bytes in the last FILE_TTL_S, if any. */
export async function jobOfFile(tenantId: string, digest: string): Promise<string | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: importKeys.importFile(tenantId, digest), ConsistentRead: true }),
  );
  if (!Item || Number(Item.expires_at) < Date.now() / 1000) return undefined;
  return String(Item.job_id);
}

const chunkItem = (tenantId: string, jobId: string, n: number, rows: ImportRow[]): Item => ({
  ...importKeys.importChunk(tenantId, jobId, n),
  type: 'import_chunk',
  tenant_id: tenantId,
  job_id: jobId,
  rows: JSON.stringify(rows),
  [TABLE_DEF.ttlAttribute]: epoch(CHUNK_TTL_S),
});

/**
 * Single-item writes, a few at a time: the import's functions have the route functions' write
 * rights (PutItem, UpdateItem, DeleteItem, ConditionCheckItem), never BatchWriteItem
 * (test/unit/stack/least-privilege.test.ts), and a job has a few dozen such items at most.
 */
async function eachAtMost<T>(items: T[], n: number, fn: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

const deleteItems = (itemKeys: { PK: string; SK: string }[]) =>
  eachAtMost(itemKeys, 10, (Key) => ddb.send(new DeleteCommand({ TableName: tableName(), Key })));

const putItems = (items: Item[]) => eachAtMost(items, 10, (Item) => ddb.send(new PutCommand({ TableName: tableName(), Item })));

/**
 * Store a new job: its chunks first, then the job and the file's pointer in one transaction. When
 * the same file was posted meanwhile, its job wins: the chunks written here are deleted and that
 * job's id is returned instead.
 */
export async function createImportJob(
  tenantId: string,
  job: Omit<ImportJobItem, 'created' | 'skipped' | 'failed' | 'next_row' | 'status'>,
  chunks: ImportRow[][],
  audit?: AuditEntry,
): Promise<{ created: true } | { created: false; existing: string }> {
  const chunkItems = chunks.map((rows, n) => chunkItem(tenantId, job.id, n, rows));
  await putItems(chunkItems);
  const now = Math.floor(Date.now() / 1000);
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...importKeys.importJob(tenantId, job.id),
                type: 'import_job',
                tenant_id: tenantId,
                ...job,
                status: 'queued',
                next_row: 0,
                n_created: 0,
                n_skipped: 0,
                n_failed: 0,
                [TABLE_DEF.ttlAttribute]: epoch(JOB_TTL_S),
              },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...importKeys.importFile(tenantId, job.digest),
                type: 'import_file',
                tenant_id: tenantId,
                job_id: job.id,
                [TABLE_DEF.ttlAttribute]: now + FILE_TTL_S,
              },
              // An expired pointer TTL has not removed yet is no pointer.
              ConditionExpression: 'attribute_not_exists(PK) OR #exp < :now',
              ExpressionAttributeNames: { '#exp': TABLE_DEF.ttlAttribute },
              ExpressionAttributeValues: { ':now': now },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          ...(audit ? auditPuts(tenantId, audit) : []),
        ],
      }),
    );
    return { created: true };
  } catch (err) {
    const reasons = cancellationReasons(err);
    const seen = reasons?.[1]?.Code === 'ConditionalCheckFailed' ? itemSeen(reasons[1]) : undefined;
    await deleteItems(chunkItems.map((c) => ({ PK: c.PK as string, SK: c.SK as string })));
    if (seen?.job_id) return { created: false, existing: String(seen.job_id) };
    throw err;
  }
}

/** Undo a job that could not be queued: nothing of it stays, so the same file can be posted again. */
export async function discardImportJob(tenantId: string, job: Pick<ImportJobItem, 'id' | 'digest' | 'chunk_rows'>) {
  await deleteItems([
    importKeys.importJob(tenantId, job.id),
    importKeys.importFile(tenantId, job.digest),
    ...job.chunk_rows.map((_, n) => importKeys.importChunk(tenantId, job.id, n)),
  ]);
}

/** One chunk's rows; undefined when the chunk is gone (the job outlived its file). */
export async function getChunk(tenantId: string, jobId: string, n: number): Promise<ImportRow[] | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: importKeys.importChunk(tenantId, jobId, n), ConsistentRead: true }),
  );
  return Item ? (JSON.parse(String(Item.rows)) as ImportRow[]) : undefined;
}

/** Delete one chunk of the file, once every row in it is counted. */
export async function deleteChunk(tenantId: string, jobId: string, n: number): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName(), Key: importKeys.importChunk(tenantId, jobId, n) }));
}

/**
 * Take (or keep) the workspace's import lock for `jobId` until `leaseMs` from now. False while
 * another job holds a lease that has not run out: one import runs per workspace at a time, so
 * two imports never race on the same email.
 */
export async function takeImportLock(tenantId: string, jobId: string, leaseMs: number): Promise<boolean> {
  const now = Date.now();
  const done = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: importKeys.importLock(tenantId),
        ...update(
          { type: 'import_lock', tenant_id: tenantId, job_id: jobId, lease_until: now + leaseMs },
          {
            expression: 'attribute_not_exists(PK) OR #job = :job OR #lease < :now',
            names: { '#job': 'job_id', '#lease': 'lease_until' },
            values: { ':job': jobId, ':now': now },
          },
        ),
      }),
    ),
  );
  return done !== undefined;
}

/** Mark a queued job running (a no-op for a running one). */
export async function startImportJob(tenantId: string, jobId: string, at: string): Promise<void> {
  await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: importKeys.importJob(tenantId, jobId),
        ...update(
          { status: 'running', updated_at: at },
          { expression: '#st = :queued', names: { '#st': 'status' }, values: { ':queued': 'queued' } },
        ),
      }),
    ),
  );
}

export interface SliceCounts {
  created: number;
  skipped: number;
  failed: number;
}

/**
 * Count the rows from `from` to `to` as done, once: the update holds only while the job still
 * stands at `from`. False when another run of the job counted them first.
 */
export async function advanceImportJob(tenantId: string, jobId: string, from: number, to: number, counts: SliceCounts, at: string) {
  const done = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: importKeys.importJob(tenantId, jobId),
        ...update(
          {
            next_row: to,
            updated_at: at,
            n_created: $add(counts.created),
            n_skipped: $add(counts.skipped),
            n_failed: $add(counts.failed),
          },
          {
            expression: '#next = :from AND #st = :running',
            names: { '#next': 'next_row', '#st': 'status' },
            values: { ':from': from, ':running': 'running' },
          },
        ),
      }),
    ),
  );
  return done !== undefined;
}

/**
 * End the job: its status (completed, or failed with a sentence) and the lock released, in one
 * transaction; then its chunks are deleted. The job's change to `completed` is what the stream
 * turns into `import.completed`.
 */
export async function finishImportJob(
  tenantId: string,
  job: Pick<ImportJobItem, 'id' | 'chunk_rows'>,
  outcome: { status: 'completed' } | { status: 'failed'; error: string },
  at: string,
): Promise<void> {
  const jobUpdate = {
    Update: {
      TableName: tableName(),
      Key: importKeys.importJob(tenantId, job.id),
      ...update(
        { status: outcome.status, updated_at: at, completed_at: at, ...(outcome.status === 'failed' && { error: outcome.error }) },
        { expression: '#st IN (:queued, :running)', names: { '#st': 'status' }, values: { ':queued': 'queued', ':running': 'running' } },
      ),
    },
  };
  const lockRelease = {
    Delete: {
      TableName: tableName(),
      Key: importKeys.importLock(tenantId),
      ConditionExpression: 'attribute_not_exists(PK) OR #job = :job',
      ExpressionAttributeNames: { '#job': 'job_id' },
      ExpressionAttributeValues: { ':job': job.id },
    },
  };
  for (const items of [[jobUpdate, lockRelease], [jobUpdate]]) {
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems: items }));
      break;
    } catch (err) {
      const reasons = cancellationReasons(err);
      // Already ended by another run of the job: nothing left to do but the cleanup.
      if (reasons?.[0]?.Code === 'ConditionalCheckFailed') break;
      // The lock is another job's (this one is given up without holding it): end the job alone.
      if (reasons?.[1]?.Code !== 'ConditionalCheckFailed') throw err;
    }
  }
  await deleteItems(job.chunk_rows.map((_, n) => importKeys.importChunk(tenantId, job.id, n)));
}

export interface StoredRowError extends RowError {
  row: number;
}

/** Keep row errors; written again by a retried run, they stay the same items. */
export async function putRowErrors(tenantId: string, jobId: string, errors: StoredRowError[]): Promise<void> {
  const items = errors.map((e) => ({
    ...importKeys.importError(tenantId, jobId, e.row),
    type: 'import_error',
    tenant_id: tenantId,
    job_id: jobId,
    row: e.row,
    outcome: e.skipped ? 'skipped' : 'failed',
    ...(e.field !== null && { field: e.field }),
    code: e.code,
    message: e.message,
    [TABLE_DEF.ttlAttribute]: epoch(JOB_TTL_S),
  }));
  await putItems(items);
}

const ERROR_SK = /^IMPORT#[0-9a-f-]{36}#E#\d{6}$/;

/** Where a page of a job's row errors ends (list cursors, lib/domain/cursor.ts). */
export const rowErrorPageKey = (tenantId: string): PageKeyShape => ({
  attrs: [TABLE_DEF.partitionKey, TABLE_DEF.sortKey],
  partitions: { [TABLE_DEF.partitionKey]: keys.tenantPartition(tenantId) },
  sortKey: ERROR_SK,
});

/** A page of a job's row errors in row order, from after `startKey`. */
export async function queryRowErrors(tenantId: string, jobId: string, limit: number, startKey?: Record<string, string>) {
  const { Items = [] } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.tenantPartition(tenantId), ':prefix': importKeys.importErrorPrefix(jobId) },
      ScanIndexForward: true,
      // One more than the page: a next page exists only if it has a row, never an empty last page.
      Limit: limit + 1,
      ExclusiveStartKey: startKey,
    }),
  );
  return {
    items: Items.slice(0, limit).map((i) => ({
      row: num(i, 'row', 'import_error'),
      outcome: oneOf(i, 'outcome', ['failed', 'skipped'] as const, 'import_error'),
      field: optStr(i, 'field', 'import_error') ?? null,
      code: str(i, 'code', 'import_error'),
      error: str(i, 'message', 'import_error'),
      key: { PK: String(i.PK), SK: String(i.SK) },
    })),
    more: Items.length > limit,
  };
}
