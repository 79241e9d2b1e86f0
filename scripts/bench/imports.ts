/**
 * Bulk import, measured locally (`npm run bench`, section 9; alone: `tsx scripts/bench/imports.ts
 * [rows]`): a CSV of 10,000 rows (1% invalid, 1% duplicates) from POST to `completed` through the
 * local gateway and the local import worker on DynamoDB Local, with the counters checked and the
 * `candidate.created` events counted from the table's stream; rows per second, CPU per row, and
 * the process's peak memory while it parses and runs a 5 MB file. Printed, never asserted.
 */
import '../../dev/quiet-sdk';
import { performance } from 'node:perf_hooks';
import { startDynamoDbLocal } from '../../dev/dynamodb';
import { ensureTable, localClient } from '../../dev/table';

export interface ImportFigures {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  cpuMsPerRow: number;
  counts: { total: number; created: number; skipped: number; failed: number };
  countersExact: boolean;
  createdEvents: number;
  fileBytes: number;
  peakRssMb: number;
  /** The JavaScript heap's peak above where it stood before the POST: what the file's parsing and import add. */
  heapGrowthMb: number;
}

/** The file: `rows` rows, every 100th invalid (no name), every 100th (offset 50) repeating an earlier email. */
export function benchCsv(rows: number, pad = 0): string {
  const lines = ['name,email,phone,stage'];
  for (let i = 0; i < rows; i++) {
    const filler = pad ? ` ${'x'.repeat(pad)}` : '';
    if (i % 100 === 99) lines.push(`,invalid-${i}@bench.example,,applied`);
    else if (i % 100 === 50) lines.push(`Dup ${i},person-${i - 50}@bench.example,,applied`);
    else lines.push(`Person ${i}${filler},person-${i}@bench.example,+1 555 ${String(i).padStart(7, '0')},applied`);
  }
  return `${lines.join('\n')}\n`;
}

export async function measureImport(rows = 10_000): Promise<ImportFigures> {
  const ddbLocal = await startDynamoDbLocal();
  try {
    const tableName = `bench-import-${Date.now()}`;
    await ensureTable(localClient(ddbLocal.endpoint), tableName);
    process.env.TABLE_NAME = tableName;
    process.env.DYNAMODB_ENDPOINT = ddbLocal.endpoint;
    const { startImportPipeline } = await import('../../dev/imports');
    const imports = await startImportPipeline();
    const { startStreamPoller } = await import('../../dev/stream');
    const { eventsFromRecord } = await import('../../lib/webhooks/events');
    let createdEvents = 0;
    const stream = startStreamPoller({
      endpoint: ddbLocal.endpoint,
      tableName,
      intervalMs: 100,
      handler: async (e) => {
        for (const r of e.Records) createdEvents += eventsFromRecord(r).filter((x) => x.type === 'candidate.created').length;
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
    const call = async (method: string, path: string, body?: string) => {
      const res = await fetch(`${url}/api/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body && { 'Content-Type': 'text/csv' }) },
        body,
      });
      return (await res.json()) as { data: any };
    };

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
    const t0 = performance.now();
    const job = (await call('POST', '/candidates/imports', csv)).data;
    let done: any;
    for (;;) {
      done = (await call('GET', `/candidates/imports/${job.id}`)).data;
      if (done.status === 'completed' || done.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    // The events of the last rows may still be on their way through the stream.
    for (let i = 0; i < 100 && createdEvents < done.counts.created; i++) await new Promise((r) => setTimeout(r, 100));
    const stats = await getStats(tenant.id);
    // A second file near 5 MB (padded names), for the peak memory of the largest file accepted.
    const big = benchCsv(rows, 420);
    const bigJob = (await call('POST', '/candidates/imports', big)).data;
    for (;;) {
      const j = (await call('GET', `/candidates/imports/${bigJob.id}`)).data;
      if (!j || j.status === 'completed' || j.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    clearInterval(sampler);
    await gateway.close();
    await stream.stop();
    await imports.stop();
    return {
      rows,
      seconds,
      rowsPerSecond: rows / seconds,
      cpuMsPerRow: (cpu.user + cpu.system) / 1000 / rows,
      counts: done.counts,
      countersExact: stats.total === done.counts.created,
      createdEvents,
      fileBytes: Buffer.byteLength(big),
      peakRssMb: peakRss / 1024 / 1024,
      heapGrowthMb: (peakHeap - heapBefore) / 1024 / 1024,
    };
  } finally {
    await ddbLocal.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await measureImport(Number(process.argv[2] ?? 10_000));
  console.log(
    [
      `import of ${f.rows} rows (1% invalid, 1% duplicates), POST to completed: ${f.seconds.toFixed(1)} s (goal ≤ 60 s), ${f.rowsPerSecond.toFixed(0)} rows/s`,
      `  counts ${JSON.stringify(f.counts)}; workspace counter exact: ${f.countersExact}; candidate.created events: ${f.createdEvents}`,
      `  CPU of this process (gateway, worker, SDK) per row: ${f.cpuMsPerRow.toFixed(2)} ms`,
      `  peak RSS of this process with a ${(f.fileBytes / 1024 / 1024).toFixed(1)} MB file: ${f.peakRssMb.toFixed(0)} MB (goal < 256 MB; gateway, all handlers and worker in one process), heap growth ${f.heapGrowthMb.toFixed(0)} MB`,
    ].join('\n'),
  );
  console.log(
    `RESULT seconds=${f.seconds.toFixed(1)} rows=${f.rows} rps=${f.rowsPerSecond.toFixed(0)} cpu=${f.cpuMsPerRow.toFixed(2)} rss=${f.peakRssMb.toFixed(0)} heap=${f.heapGrowthMb.toFixed(0)} mb=${(f.fileBytes / 1024 / 1024).toFixed(1)} exact=${f.countersExact && f.createdEvents === f.counts.created}`,
  );
  process.exit(0);
}
