/**
 * `npm run bench`: the numbers we track, printed, never asserted.
 *  1. bundle size per function (the stack's own esbuild options), raw and gzip (scripts/bench/init-times.ts);
 *  2. module init time of each bundle in a fresh Node process (median of 5);
 *  3. per route, one request at a time after a warm-up: DynamoDB calls, items written (audit items
 *     among them), write units, Node's and DynamoDB Local's CPU per request, p50/p99 (scripts/bench/routes.ts);
 *  4. `npm start` time to ready, first start (seeding) and restart;
 *  5. webhooks: latency through the local pipeline and through the API, creates through to a first
 *     delivery attempt per second (scripts/bench/webhooks.ts), and one delivery worker against a
 *     pre-filled queue: deliveries per second and CPU per delivery (scripts/bench/delivery.ts);
 *  6. an autocannon load run against `npm start` after a warm-up: req/s, p50, p99, the CPU per request of
 *     npm start and of its DynamoDB Local, then a check that the counters are exact (scripts/bench/load.ts);
 *  7. the workspace console's first-load JavaScript, gzipped, beside its 150 KB budget;
 *  8. search and board pages at 100,000 candidates, and the write cost of the search index (scripts/bench/search.ts);
 *  9. the board of a requisition with 500 candidates in Chromium: navigation to usable, and a move (scripts/bench/board.ts);
 * 10. a bulk import of 10,000 rows, POST to completed, and the peak memory of a 5 MB file (scripts/bench/imports.ts);
 * 11. the audit log's first page at 100,000 records, unfiltered and under each filter (scripts/bench/audit.ts);
 * 12. erasure of a candidate with 40 events delivered to 3 endpoints: time and items scrubbed (scripts/bench/erasure.ts);
 * 13. files: a 10 MB PDF through npm start from the first request to ready (scripts/bench/file-upload.ts), extraction
 *     of a two-page CV, the file worker's peak RSS on a 20 MB file, and what the parsers add to a function that
 *     touches no file (scripts/bench/files.ts);
 * 14. interview invitations: an interview with 4 interviewers and the candidate invited, from the
 *     schedule call to all 5 emails in the local SES (scripts/bench/invitations.ts);
 * 15. GET /api/v1/placements at 10,000 placements seeded with BatchWriteItem: DynamoDB calls and time
 *     per page, every page and under each filter (scripts/bench/placements.ts);
 * 16. a burst of 1,000 applications over 10 s through the public route against `npm start`: time to the
 *     last candidate, synchronous p50/p99, exact counters; the careers pages' weight and Lighthouse
 *     scores (scripts/bench/applications.ts);
 *  and last, every tracked figure beside its goal (scripts/bench/goals.ts), and the machine's load average.
 * Time figures move by up to a third from one day or machine to the next; CPU per unit of work
 * (per request, per delivery, per row) moves much less, so each goal is printed with it.
 * A figure that could not be measured is printed as "not measured (reason)", never as a number.
 */
import '../../dev/quiet-sdk';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Figure, goal, printGoals, show, skipped, want } from './goals';

const root = join(import.meta.dirname, '..', '..');
const loadAtStart = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
const out = mkdtempSync(join(tmpdir(), 'tp-bench-'));
/** CPU a second of wall time offers on this machine: the budget a rate goal leaves per unit of work. */
const budgetMs = (perSecond: number) => (cpus().length * 1000) / perSecond;

/**
 * A bench script in a child process (a fresh DynamoDB Local, its own module state), its output
 * printed but for its `RESULT …` line, which is matched by `result` and returned.
 */
function child(script: string, opts: { args?: string[]; env?: NodeJS.ProcessEnv; result: RegExp }) {
  const run = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [script, ...(opts.args ?? [])], {
    cwd: root,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const stdout = run.stdout ?? '';
  const printed = stdout.split('\n').filter((l) => !l.startsWith('RESULT ') && !l.startsWith('{'));
  process.stdout.write(`${printed.join('\n').trimEnd()}\n`);
  return { match: opts.result.exec(stdout), why: `${script} exited ${run.status} before measuring it` };
}

let missingInit: string[] = [];
if (want('1')) {
  const { bundleFigures } = await import('./init-times');
  missingInit = await bundleFigures(root, out);
} else {
  skipped('Bundles per API function (minified)', 'at most 400 KB');
  skipped('Init time of webhook-fanout and webhook-delivery', 'their real time');
}

if (want('3')) {
  console.log('\n3. Per route: DynamoDB calls, items written, write units, CPU per request (local gateway + DynamoDB Local)');
  // Imported here, not above: it puts this process in the local runtime's X-Ray mode (dev/untraced.ts),
  // which the bundles' init times of section 1 must not inherit.
  const { routeFigures, routeGoals } = await import('./routes');
  routeGoals(await routeFigures());
} else {
  skipped('GET /api/v1/pipeline calls', 'at most 2 calls');
  skipped('Local p50 of GET /api/v1/pipeline', 'within 1.5× of GET /api/v1/requisitions');
}

if (want('4')) {
  console.log('\n4. npm start, time to ready');
  const dataDir = join(out, 'data');
  for (const label of ['first start (creates table, seeds)', 'restart (existing data)']) {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'dev/start.ts'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await new Promise<void>((resolve, reject) => {
        let buf = '';
        child.stdout!.on('data', (d) => {
          buf += d;
          if (buf.includes('Talent Pipeline is running')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before it was ready`)));
      });
      console.log(`  ${label.padEnd(36)} ${((performance.now() - started) / 1000).toFixed(2)} s`);
    } catch (err) {
      console.log(`  ${label.padEnd(36)} not measured: ${(err as Error).message}`);
    }
    child.kill('SIGTERM');
    await exited;
  }
}

if (want('5')) {
  console.log('\n5. Webhooks through the local pipeline (https receiver on 127.0.0.1)');
  const { localhostCertificate } = await import('../../dev/dev-receiver');
  const pems = await localhostCertificate(1);
  writeFileSync(join(out, 'cert.pem'), pems.cert);
  writeFileSync(join(out, 'key.pem'), pems.key);
  const tls = { NODE_EXTRA_CA_CERTS: join(out, 'cert.pem'), BENCH_CERT: join(out, 'cert.pem'), BENCH_KEY: join(out, 'key.pem') };
  const e2e = child('scripts/bench/webhooks.ts', { env: tls, result: /^RESULT first_attempts_per_s=(\S+) cpu_ms=(\S+) dbcpu_ms=(\S+)$/m });
  const r = e2e.match;
  goal(
    'Creates through to a first delivery attempt (API burst of 200, 20 at once)',
    r
      ? `${Number(r[1]).toFixed(1)}/s; CPU per create, one process (gateway, functions, pipeline) ${r[2]} ms, DynamoDB Local ${r[3]} ms`
      : `not measured (${e2e.why})`,
    'tracked',
    r ? 'tracked' : undefined,
  );
  const deliveries = child('scripts/bench/delivery.ts', {
    args: [process.env.BENCH_DELIVERIES ?? '3000'],
    env: { ...tls, BENCH_PROFILE: '1' },
    result: /^RESULT delivery_per_s=(\S+) ok=(\S+) cpu_ms=(\S+) dbcpu_ms=(\S+)$/m,
  });
  const d = deliveries.match;
  const rate: Figure =
    d && d[2] === 'true' ? { value: Number(d[1]) } : { reason: d ? 'the delivery check failed (see above)' : deliveries.why };
  // npm start's CPU is its Node process (the worker, the local SQS) and its DynamoDB Local together.
  const cpu: Figure =
    d && d[3] !== 'none' && d[4] !== 'none' ? { value: Number(d[3]) + Number(d[4]) } : { reason: d ? 'no /proc' : deliveries.why };
  goal(
    'One delivery worker (pre-filled queue, local HTTPS receiver): npm start CPU per delivery, deliveries/s',
    `${show(cpu, ' ms', 2)} per delivery${'value' in cpu ? ` (Node ${d![3]} + DynamoDB Local ${d![4]} ms)` : ''}, ${show(rate, '/s', 0)}`,
    'at most 1.4 ms of CPU per delivery, or at least 1,000/s',
    'value' in cpu || 'value' in rate ? ('value' in cpu && cpu.value <= 1.4) || ('value' in rate && rate.value >= 1000) : undefined,
  );
} else skipped('One delivery worker: CPU per delivery, deliveries/s', 'at most 1.4 ms of CPU per delivery, or at least 1,000/s');

if (want('6')) {
  const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
  const warmup = Number(process.env.BENCH_LOAD_WARMUP_SECONDS ?? 15);
  console.log(
    `\n6. Load: autocannon against npm start, mixed reads and writes, ${warmup} s of warm-up, then ${seconds} s measured at 16 connections`,
  );
  const { loadRun } = await import('./load');
  const load = await loadRun({ root, dataDir: join(out, 'load-data'), seconds, warmupSeconds: warmup, connections: 16 });
  for (const line of load.lines) console.log(`  ${line}`);
  goal(
    `Mixed load (${seconds} s, 16 connections): requests/s, p50, p99`,
    load.figures ? `${load.figures.rps.toFixed(0)} req/s, p50 ${load.figures.p50} ms, p99 ${load.figures.p99} ms` : load.summary,
    'at least 300 req/s with p50 under 60 ms',
    load.figures ? load.figures.rps >= 300 && load.figures.p50 < 60 : undefined,
  );
  const budget = budgetMs(300);
  const perRequest =
    load.figures?.nodeMs !== undefined && load.figures.dbMs !== undefined ? load.figures.nodeMs + load.figures.dbMs : undefined;
  goal(
    'Mixed load: CPU per request, npm start + its DynamoDB Local',
    perRequest === undefined
      ? 'not measured (no /proc)'
      : `${perRequest.toFixed(2)} ms (${load.figures!.nodeMs!.toFixed(2)} + ${load.figures!.dbMs!.toFixed(2)} ms)`,
    `at most ${budget.toFixed(1)} ms (${cpus().length} cores at 300 req/s)`,
    perRequest === undefined ? undefined : perRequest <= budget,
  );
  goal(
    'Mixed load: errors, and counters exact after it',
    `${load.errors} errors; counters ${load.counters}`,
    'no errors; exact',
    load.ok && load.countersExact,
  );
} else skipped('Mixed load (30 s, 16 connections)', 'at least 300 req/s with p50 under 60 ms');

if (want('7')) {
  console.log('\n7. Workspace console: first page load (the JS index.html loads; budget 150 KB gzipped) and each route chunk');
  const { ensureConsoleBuilt, CONSOLE_DIST } = await import('../../console/build');
  const { weightReport } = await import('./console-weight');
  const built = await ensureConsoleBuilt();
  const lines = built.status === 'failed' ? [`not measured: the build failed: ${built.error}`] : weightReport(CONSOLE_DIST);
  for (const line of lines) console.log(`  ${line}`);
}

if (want('8')) {
  const size = Number(process.env.BENCH_SEARCH_CANDIDATES ?? 100_000);
  console.log(`\n8. Search and board pages in a workspace of ${size.toLocaleString('en')} candidates (local gateway + DynamoDB Local)`);
  const search = child('scripts/bench/search.ts', { result: /^RESULT size=(\d+) plain_p50=(\S+) search_p50=(\S+)$/m });
  const r = search.match;
  const ratio: Figure = r ? { value: Number(r[3]) / Number(r[2]) } : { reason: search.why };
  goal(
    `Local p50 of a search page (q, limit 50)${r ? `, ${Number(r[1]).toLocaleString('en')} candidates` : ''}`,
    r ? `${Number(r[3]).toFixed(1)} ms (${show(ratio, '×', 2)} the plain list's ${Number(r[2]).toFixed(1)} ms)` : show(ratio, ''),
    'at most 1.5× a plain GET /api/v1/candidates page',
    'value' in ratio ? ratio.value <= 1.5 : undefined,
  );
} else skipped('Local p50 of a search page (q, limit 50)', 'at most 1.5× a plain GET /api/v1/candidates page');

if (want('9')) {
  console.log('\n9. The board of a requisition with 500 candidates, in Chromium against npm start');
  const { boardBench } = await import('./board');
  const board = await boardBench().catch((err: Error) => ({ loadMs: `not measured (${err.message})`, moveMs: '' }));
  goal(
    'Board of 500 candidates: navigation to usable, Chromium p50',
    typeof board.loadMs === 'number' ? `${board.loadMs.toFixed(0)} ms` : board.loadMs,
    'under 1 s locally',
    typeof board.loadMs === 'number' ? board.loadMs < 1000 : undefined,
  );
} else skipped('Board of 500 candidates: navigation to usable, Chromium p50', 'under 1 s locally');

if (want('10')) {
  console.log('\n10. Bulk import: 10,000 rows (1% invalid, 1% duplicates) through the local gateway and import worker');
  const run = child('scripts/bench/imports.ts', {
    env: { POWERTOOLS_LOG_LEVEL: 'WARN' },
    result: /^RESULT seconds=(\S+) rows=(\d+) rps=(\S+) cpu=(\S+) dbcpu=(\S+) rss=(\S+) heap=(\S+) mb=(\S+) exact=(\w+)$/m,
  });
  const r = run.match;
  goal(
    'Local import of 10,000 rows, POST to completed',
    r
      ? `${r[1]} s (${r[3]} rows/s; CPU per row ${r[4]} ms in Node, ${r[5] === 'none' ? 'not measured (no /proc)' : `${r[5]} ms`} in DynamoDB Local; counts and events exact: ${r[9]})`
      : `not measured (${run.why})`,
    'at most 60 s',
    r ? Number(r[1]) <= 60 : undefined,
  );
  goal(
    'Peak memory importing a 5 MB file',
    r ? `${r[6]} MB peak RSS (the bundled worker alone, ${r[8]} MB file)` : `not measured (${run.why})`,
    'below 256 MB',
    r ? Number(r[6]) < 256 : undefined,
  );
} else {
  skipped('Local import of 10,000 rows, POST to completed', 'at most 60 s');
  skipped('Peak memory importing a 5 MB file', 'below 256 MB');
}

if (want('11')) {
  const size = Number(process.env.BENCH_AUDIT_RECORDS ?? 100_000);
  console.log(`\n11. The audit log's first page in a workspace of ${size.toLocaleString('en')} records (local gateway + DynamoDB Local)`);
  const audit = child('scripts/bench/audit.ts', { result: /^RESULT size=(\d+) max_calls=(\d+) p50=(\S+)$/m });
  const r = audit.match;
  goal(
    `Audit log first page: DynamoDB calls, worst filter${r ? `, ${Number(r[1]).toLocaleString('en')} records` : ''}`,
    r ? `${r[2]} (slowest p50 ${Number(r[3]).toFixed(1)} ms)` : `not measured (${audit.why})`,
    'at most 2 at 100,000 records',
    // Judged only at the size the goal names; a smaller log reached in the seed budget is shown, not judged.
    r && Number(r[1]) >= 100_000 ? Number(r[2]) <= 2 : undefined,
  );
} else skipped('Audit log first page: DynamoDB calls, worst filter', 'at most 2 at 100,000 records');

if (want('12')) {
  console.log('\n12. Erasure of a candidate with 40 events delivered to 3 endpoints (DynamoDB Local)');
  const erasure = child('scripts/bench/erasure.ts', { result: /^RESULT ms=(\S+) items=(\d+) left=(\d+)$/m });
  const r = erasure.match;
  goal(
    'Erasure, 40 events x 3 endpoints: time, items scrubbed',
    r ? `${Number(r[1]).toFixed(0)} ms, ${r[2]} items, ${r[3]} left in a full Scan` : `not measured (${erasure.why})`,
    'under 5 s locally, nothing left',
    r ? Number(r[1]) < 5000 && r[3] === '0' : undefined,
  );
} else skipped('Erasure, 40 events x 3 endpoints: time, items scrubbed', 'under 5 s locally, nothing left');

if (want('13')) {
  console.log("\n13. Files: upload to ready through npm start, extraction, the worker's peak memory, bundle weight");
  const upload = child('scripts/bench/file-upload.ts', {
    env: { POWERTOOLS_LOG_LEVEL: 'WARN' },
    result: /^RESULT uploadToReadyMs=(\d+) bytes=(\d+)$/m,
  });
  const u = upload.match;
  goal(
    'A 10 MB PDF through npm start, first request to ready',
    u ? `${u[1]} ms` : `not measured (${upload.why})`,
    'tracked',
    u ? 'tracked' : undefined,
  );
  const files = child('scripts/bench/files.ts', {
    result: /^RESULT cvMs=(\d+) coldCvMs=(\d+) peakMb=(\S+) parsersKb=(\d+) routeKb=(\d+)$/m,
  });
  const f = files.match;
  goal(
    'Extraction of a two-page CV, slowest format (first call; in a fresh process with the bundle load)',
    f ? `${f[1]} ms (${f[2]} ms)` : `not measured (${files.why})`,
    'under 2 s locally',
    f ? Math.max(Number(f[1]), Number(f[2])) < 2000 : undefined,
  );
  goal(
    "The file worker's byte check and extraction on a 20 MB file: peak RSS",
    f ? (f[3] === 'none' ? 'not measured (every run failed: see above)' : `${f[3]} MB`) : `not measured (${files.why})`,
    'under 512 MB',
    f && f[3] !== 'none' ? Number(f[3]) < 512 : undefined,
  );
  goal(
    'What the file parsers and S3 client add to a function that touches no file (list-candidates)',
    f ? `${f[5]} KB (the parsers weigh ${f[4]} KB where they are used)` : `not measured (${files.why})`,
    '0 KB',
    f ? f[5] === '0' : undefined,
  );
} else {
  skipped('A 10 MB PDF through npm start, first request to ready', 'tracked');
  skipped('Extraction of a two-page CV, slowest format', 'under 2 s locally');
  skipped("The file worker's byte check and extraction on a 20 MB file: peak RSS", 'under 512 MB');
  skipped('What the file parsers and S3 client add to a function that touches no file (list-candidates)', '0 KB');
}

if (want('14')) {
  console.log('\n14. Interview invitations: 4 interviewers and the candidate, schedule to all 5 in the local SES');
  const run = child('scripts/bench/invitations.ts', {
    env: { POWERTOOLS_LOG_LEVEL: 'WARN' },
    result: /^RESULT total=(\d+) call=(\d+) rounds=(\d+)$/m,
  });
  const r = run.match;
  goal(
    'Interview with 4 interviewers + candidate: schedule to all 5 invitations in the local SES',
    r ? `${r[1]} ms (median of ${r[3]}; the schedule call itself ${r[2]} ms, which mail does not lengthen)` : `not measured (${run.why})`,
    'tracked',
    r ? 'tracked' : undefined,
  );
} else skipped('Interview with 4 interviewers + candidate: schedule to all 5 invitations in the local SES', 'tracked');

if (want('15')) {
  const size = Number(process.env.BENCH_PLACEMENTS ?? 10_000);
  console.log(`\n15. GET /api/v1/placements at ${size.toLocaleString('en')} placements, every page (local gateway + DynamoDB Local)`);
  const run = child('scripts/bench/placements.ts', { result: /^RESULT size=(\d+) max_calls=(\d+) pages=(\d+) p50=(\S+)$/m });
  const r = run.match;
  goal(
    `GET /api/v1/placements: DynamoDB calls per page${r ? `, ${Number(r[1]).toLocaleString('en')} placements` : ''}`,
    r ? `${r[2]} (p50 ${Number(r[4]).toFixed(1)} ms a page of 200, ${r[3]} pages)` : `not measured (${run.why})`,
    'at most 2 at 10,000 placements',
    r && Number(r[1]) >= 10_000 ? Number(r[2]) <= 2 : undefined,
  );
} else skipped('GET /api/v1/placements: DynamoDB calls per page', 'at most 2 at 10,000 placements');

if (want('16')) {
  const n = Number(process.env.BENCH_APPLICATIONS ?? 1000);
  const seconds = Number(process.env.BENCH_APPLICATIONS_SECONDS ?? 10);
  console.log(`\n16. Applications: a burst of ${n.toLocaleString('en')} over ${seconds} s against npm start, then the careers pages`);
  const { applicationsBench } = await import('./applications');
  const run = await applicationsBench({ n, seconds }).catch((err: Error) => err);
  const why = run instanceof Error ? run.message : undefined;
  const a = run instanceof Error ? run : run.applications;
  goal(
    `Burst of ${n.toLocaleString('en')} applications in ${seconds} s: first post to the last candidate, synchronous p50/p99`,
    a instanceof Error
      ? `not measured (${a.message})`
      : `${a.toLastMs === undefined ? 'not measured (not every candidate came)' : `${(a.toLastMs / 1000).toFixed(1)} s`}, p50 ${a.p50.toFixed(0)} ms, p99 ${a.p99.toFixed(0)} ms`,
    'tracked',
    a instanceof Error ? undefined : 'tracked',
  );
  goal(
    'Application burst: every post answered 202, every one a candidate, counters exact',
    a instanceof Error ? `not measured (${a.message})` : `${a.failed} not 202; ${a.countersLine}`,
    'all of them, exact',
    a instanceof Error ? undefined : a.failed === 0 && a.exact,
  );
  goal(
    'Application burst: CPU per application (post and worker), npm start + its DynamoDB Local',
    a instanceof Error
      ? `not measured (${a.message})`
      : a.nodeMs === undefined || a.dbMs === undefined
        ? 'not measured (no /proc)'
        : `${(a.nodeMs + a.dbMs).toFixed(1)} ms (${a.nodeMs.toFixed(1)} + ${a.dbMs.toFixed(1)} ms)`,
    'tracked',
    a instanceof Error || a.nodeMs === undefined ? undefined : 'tracked',
  );
  const pages = run instanceof Error ? [] : run.careers.pages;
  goal(
    'Careers pages (list, job page): HTML bytes, JavaScript',
    pages.length
      ? `${pages.map((p) => `${p.label} ${(p.bytes / 1024).toFixed(1)} KB`).join(', ')}; JavaScript ${pages.reduce((t, p) => t + p.js, 0)} bytes inline, ${pages.reduce((t, p) => t + p.external, 0)} external scripts`
      : `not measured (${why ?? 'see above'})`,
    'no JavaScript',
    pages.length ? pages.every((p) => p.js === 0 && p.external === 0) : undefined,
  );
  const scores = run instanceof Error ? { reason: why! } : run.careers.scores;
  goal(
    'Careers job page, Lighthouse: performance, accessibility, SEO',
    'reason' in scores ? `not measured (${scores.reason})` : `${scores.performance}, ${scores.accessibility}, ${scores.seo}`,
    'at least 95 each',
    'reason' in scores ? undefined : Math.min(scores.performance, scores.accessibility, scores.seo) >= 95,
  );
} else {
  skipped('Burst of 1,000 applications in 10 s: first post to the last candidate, synchronous p50/p99', 'tracked');
  skipped('Application burst: every post answered 202, every one a candidate, counters exact', 'all of them, exact');
  skipped('Application burst: CPU per application (post and worker), npm start + its DynamoDB Local', 'tracked');
  skipped('Careers pages (list, job page): HTML bytes, JavaScript', 'no JavaScript');
  skipped('Careers job page, Lighthouse: performance, accessibility, SEO', 'at least 95 each');
}

printGoals();
if (missingInit.length) console.log(`  init not measured for: ${missingInit.join(', ')}`);
console.log(
  `  machine: ${cpus().length} cores; load average ${loadAtStart} at the start, ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end (1, 5, 15 min)`,
);
rmSync(out, { recursive: true, force: true });
