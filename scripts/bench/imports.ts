/**
 * Bulk import, measured locally (`npm run bench`, section 10; alone: `tsx scripts/bench/imports.ts
 * [rows]`): a CSV of 10,000 rows (1% invalid, 1% duplicates) from POST to `completed` through the
 * local gateway and the local import worker on DynamoDB Local, with the counters checked and the
 * `candidate.created` events counted from the table's stream; rows per second, CPU per row (this
 * process's, and DynamoDB Local's), and the bundled worker's peak memory running the job of a
 * 5 MB file. Printed, never asserted.
 */
import '../../dev/quiet-sdk';
// The X-Ray SDK in manual mode, as `npm start` runs the functions: the CPU figures are its own.
import '../../dev/untraced';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startDynamoDbLocal } from '../../dev/dynamodb';
import { ensureTable, localClient } from '../../dev/table';
import { tokenApi } from './api';
import { cpuMsOf } from './cpu';

export interface ImportFigures {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  cpuMsPerRow: number;
  /** DynamoDB Local's CPU (its Java process, from /proc) per row; undefined where /proc is not there. */
  dbCpuMsPerRow: number | undefined;
  counts: { total: number; created: number; skipped: number; failed: number };
  countersExact: boolean;
  createdEvents: number;
  fileBytes: number;
  peakRssMb: number;
  /** The bundled worker's peak RSS running the 5 MB file's job, its RSS once loaded, its peak heap, and that job's counts. */
  workerPeakRssMb: number;
  workerInitRssMb: number;
  workerPeakHeapMb: number;
  workerCounts: unknown;
  /** The JavaScript heap's peak above where it stood before the POST: what the file's parsing and import add. */
  heapGrowthMb: number;
  /** What a row writes, counted on a smaller import of its own (scripts/bench/import-writes.ts), as lines. */
  rowCounts: string[];
}

/**
 * The file: `rows` rows, every 100th invalid (no name), every 100th (offset 50) repeating an earlier
 * email; `pad` lengthens each resume_url (a 5 MB file of 10,000 rows).
 */
export function benchCsv(rows: number, pad = 0, tag = 'person'): string {
  const lines = ['name,email,phone,stage,resume_url'];
  for (let i = 0; i < rows; i++) {
    const cv = pad ? `https://cv.example/${'x'.repeat(pad)}` : '';
    if (i % 100 === 99) lines.push(`,invalid-${i}@bench.example,,applied,`);
    else if (i % 100 === 50) lines.push(`Dup ${i},${tag}-${i - 50}@bench.example,,applied,`);
    else lines.push(`Person ${i},${tag}-${i}@bench.example,+1 555 ${String(i).padStart(7, '0')},applied,${cv}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Rows of the counted import: enough for every kind of row, and a few transactions' worth. */
const COUNTED_ROWS = 1_000;

export async function measureImport(rows = 10_000): Promise<ImportFigures> {
  // The JIT npm start runs DynamoDB Local with: the figure is the import a developer gets.
  const ddbLocal = await startDynamoDbLocal({ jit: 'full' });
  try {
    const tableName = `bench-import-${Date.now()}`;
    await ensureTable(localClient(ddbLocal.endpoint), tableName);
    process.env.TABLE_NAME = tableName;
    process.env.DYNAMODB_ENDPOINT = ddbLocal.endpoint;
    const { startImportPipeline } = await import('../../dev/imports');
    const imports = await startImportPipeline();
    const { startStreamPoller } = await import('../../dev/stream');
    const [{ eventsFromChange }, { streamChange }] = await Promise.all([import('../../lib/webhooks/events'), import('../../lib/lambda')]);
    const { FANOUT_TIMEOUT_S } = await import('../../lib/webhooks/config');
    let createdEvents = 0;
    const stream = startStreamPoller({
      endpoint: ddbLocal.endpoint,
      tableName,
      intervalMs: 100,
      timeoutMs: FANOUT_TIMEOUT_S * 1000,
      handler: async (e) => {
        for (const r of e.Records) createdEvents += eventsFromChange(streamChange(r)).filter((x) => x.type === 'candidate.created').length;
      },
    });
    await stream.ready;
    const { createGateway } = await import('../../dev/gateway');
    const { createTenant } = await import('../../lib/store/tenants');
    const { createToken } = await import('../../lib/store/tokens');
    const { getStats } = await import('../../lib/store/stats');
    const tenant = await createTenant(`bench-${Date.now()}`, 'Bench');
    const { token } = await createToken(tenant, 'bench', ['*']);
    const gateway = createGateway({});
    const url = await gateway.listen(0);
    const call = tokenApi(url, token);

    // Peak memory: sampled while the 5 MB file is posted, parsed, stored and imported.
    let peakRss = process.memoryUsage().rss;
    let peakHeap = process.memoryUsage().heapUsed;
    const heapBefore = peakHeap;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    const csv = benchCsv(rows);
    const cpu0 = process.cpuUsage();
    const db0 = cpuMsOf(ddbLocal.pid);
    const t0 = performance.now();
    const job = (await call('POST', '/candidates/imports', csv)).data;
    let done: any;
    for (;;) {
      done = (await call('GET', `/candidates/imports/${job.id}`)).data;
      // A poll the loaded local runtime timed out (a 500 without data) is only a missed look.
      if (done?.status === 'completed' || done?.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const db1 = cpuMsOf(ddbLocal.pid);
    // The events of the last rows may still be on their way through the stream.
    for (let i = 0; i < 100 && createdEvents < done.counts.created; i++) await new Promise((r) => setTimeout(r, 100));
    // A second more, so an event too many would show; then the reader stops, before the 5 MB
    // file's job below makes events of its own in the same workspace.
    await new Promise((r) => setTimeout(r, 1000));
    await stream.stop();
    const events = createdEvents;
    const stats = await getStats(tenant.id);
    clearInterval(sampler);
    // Counted apart from the timed run, so the counting costs it nothing.
    const { countImportWrites, rowCountLines } = await import('./import-writes');
    const countRows = Math.min(rows, COUNTED_ROWS);
    const rowCounts = rowCountLines(await countImportWrites(url, ddbLocal.endpoint, benchCsv(countRows, 0, 'counted'), countRows));
    // The worker alone on a file near 5 MB: the job stored here (as the POST stores it), then run
    // by a child process that loads only the worker, as its Lambda would, and reports its peak.
    const big = benchCsv(rows, 420, 'big');
    const worker = await workerPeak(tenant.id, big, ddbLocal.endpoint, tableName);
    await gateway.close();
    await imports.stop();
    return {
      rows,
      seconds,
      rowsPerSecond: rows / seconds,
      cpuMsPerRow: (cpu.user + cpu.system) / 1000 / rows,
      dbCpuMsPerRow: db0 !== undefined && db1 !== undefined ? (db1 - db0) / rows : undefined,
      counts: done.counts,
      countersExact: stats.total === done.counts.created,
      createdEvents: events,
      fileBytes: Buffer.byteLength(big),
      workerPeakRssMb: worker.rssMb,
      workerInitRssMb: worker.initMb,
      workerPeakHeapMb: worker.heapMb,
      workerCounts: worker.counts,
      peakRssMb: peakRss / 1024 / 1024,
      heapGrowthMb: (peakHeap - heapBefore) / 1024 / 1024,
      rowCounts,
    };
  } finally {
    await ddbLocal.stop();
  }
}

/**
 * The worker as its Lambda runs it: its bundle (the stack's esbuild options) loaded by a plain
 * Node process, the handler given the job's SQS message, memory sampled every 10 ms. Not run
 * through tsx: its transpiler and source maps add about 70 MB that no Lambda has.
 */
const HARNESS = `
const [bundle, tenantId, jobId] = process.argv.slice(1);
let rss = 0, heap = 0;
const sample = () => { const m = process.memoryUsage(); rss = Math.max(rss, m.rss); heap = Math.max(heap, m.heapUsed); };
const timer = setInterval(sample, 10);
const { handler } = await import(bundle);
sample();
const init = process.memoryUsage().rss;
const body = JSON.stringify({ v: 1, tenantId, jobId });
await handler({ Records: [{ messageId: 'bench', body }] }, { getRemainingTimeInMillis: () => 15 * 60_000, awsRequestId: 'bench', functionName: 'import-worker' });
clearInterval(timer);
sample();
const mb = (n) => (n / 1024 / 1024).toFixed(0);
console.log('WORKER rss=' + mb(rss) + ' init=' + mb(init) + ' heap=' + mb(heap));
`;

/** Store the job of `csv` as the POST does (no queue), then run it in the bundled worker; its peak memory and the job's counts. */
async function workerPeak(tenantId: string, csv: string, endpoint: string, tableName: string) {
  const { readImportFile, chunkRows } = await import('../../lib/imports/parse');
  const { createImportJob, getImportJob } = await import('../../lib/store/imports');
  const { newId, nowIso } = await import('../../lib/ids');
  const rows = readImportFile(csv, 'csv');
  const chunks = chunkRows(rows);
  const at = nowIso();
  const id = newId();
  const job = {
    id,
    format: 'csv' as const,
    total: rows.length,
    chunk_rows: chunks.map((c) => c.length),
    created_ms: Date.parse(at),
    digest: id,
    created_at: at,
    updated_at: at,
  };
  await createImportJob(tenantId, job, chunks);
  const { bundle } = await import('./bundles');
  const dir = mkdtempSync(join(tmpdir(), 'tp-import-worker-'));
  const file = join(dir, 'import-worker.mjs');
  try {
    await bundle('import-worker', file);
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', HARNESS, file, tenantId, id], {
      env: {
        // Not this process's X-Ray mode (dev/untraced.ts): the worker's memory as Lambda runs it.
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'AWS_XRAY_MANUAL_MODE')),
        TABLE_NAME: tableName,
        DYNAMODB_ENDPOINT: endpoint,
        IMPORT_QUEUE_URL: 'unused',
        POWERTOOLS_LOG_LEVEL: 'WARN',
        AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const m = /^WORKER rss=(\d+) init=(\d+) heap=(\d+)$/m.exec(child.stdout);
    const j = await getImportJob(tenantId, id);
    const counts = { status: j?.status, created: j?.created, skipped: j?.skipped, failed: j?.failed };
    return m
      ? { rssMb: Number(m[1]), initMb: Number(m[2]), heapMb: Number(m[3]), counts }
      : { rssMb: Number.NaN, initMb: Number.NaN, heapMb: Number.NaN, counts: `worker exited ${child.status}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await measureImport(Number(process.argv[2] ?? 10_000));
  console.log(
    [
      `import of ${f.rows} rows (1% invalid, 1% duplicates), POST to completed: ${f.seconds.toFixed(1)} s (goal ≤ 60 s), ${f.rowsPerSecond.toFixed(0)} rows/s`,
      `  counts ${JSON.stringify(f.counts)}; workspace counter exact: ${f.countersExact}; candidate.created events: ${f.createdEvents}`,
      `  CPU per row: ${f.cpuMsPerRow.toFixed(2)} ms in this process (gateway, worker, SDK, stream reader), ${f.dbCpuMsPerRow === undefined ? 'not measured (no /proc)' : `${f.dbCpuMsPerRow.toFixed(2)} ms`} in DynamoDB Local`,
      `  the bundled worker alone, running the job of a ${(f.fileBytes / 1024 / 1024).toFixed(1)} MB file: peak RSS ${f.workerPeakRssMb.toFixed(0)} MB (goal < 256 MB; ${f.workerInitRssMb.toFixed(0)} MB once loaded, heap peak ${f.workerPeakHeapMb.toFixed(0)} MB); counts ${JSON.stringify(f.workerCounts)}`,
      `  this process (gateway, every handler, worker, stream reader) during the ${f.rows}-row run: peak RSS ${f.peakRssMb.toFixed(0)} MB, heap growth ${f.heapGrowthMb.toFixed(0)} MB`,
      ...f.rowCounts,
    ].join('\n'),
  );
  console.log(
    `RESULT seconds=${f.seconds.toFixed(1)} rows=${f.rows} rps=${f.rowsPerSecond.toFixed(0)} cpu=${f.cpuMsPerRow.toFixed(2)} dbcpu=${f.dbCpuMsPerRow?.toFixed(2) ?? 'none'} rss=${f.workerPeakRssMb.toFixed(0)} heap=${f.heapGrowthMb.toFixed(0)} mb=${(f.fileBytes / 1024 / 1024).toFixed(1)} exact=${f.countersExact && f.createdEvents === f.counts.created}`,
  );
  process.exit(0);
}
