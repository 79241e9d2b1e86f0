/**
 * `npm run bench`: the numbers we track, printed, never asserted.
 *  1. bundle size per function (the stack's own esbuild options), raw and gzip;
 *  2. module init time of each bundle in a fresh Node process (median of 5);
 *  3. DynamoDB calls and local latency per route, against DynamoDB Local;
 *  4. `npm start` time to ready, first start (seeding) and restart;
 *  5. webhooks: latency through the local pipeline and through the API (scripts/bench/webhooks.ts), and deliveries per
 *     second of one delivery worker against a pre-filled queue (scripts/bench/delivery.ts);
 *  6. an autocannon load run against `npm start`, then a check that the counters are exact;
 *  7. the workspace console's first-load JavaScript, gzipped, beside its 150 KB budget;
 *  8. search and board pages at 100,000 candidates, and the write cost of the search index (scripts/bench/search.ts);
 *  9. the board of a requisition with 500 candidates in Chromium: navigation to usable, and a move (scripts/bench/board.ts);
 * 10. a bulk import of 10,000 rows, POST to completed, and the peak memory of a 5 MB file (scripts/bench/imports.ts);
 * 11. the audit log's first page at 100,000 records, unfiltered and under each filter (scripts/bench/audit.ts);
 * 12. erasure of a candidate with 40 events delivered to 3 endpoints: time and items scrubbed (scripts/bench/erasure.ts);
 *  and last, every tracked figure beside its goal (docs/testing.md, "Measurements"), and the machine's load average.
 * A figure that could not be measured is printed as "not measured (reason)", never as a number.
 */
import '../../dev/quiet-sdk';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { routes } from '../../lib/routes';
import { startDynamoDbLocal } from '../../dev/dynamodb';
import { ensureTable, localClient } from '../../dev/table';
import { median, pct, summarize } from './stats';

const root = join(import.meta.dirname, '..', '..');
const loadAtStart = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
const out = mkdtempSync(join(tmpdir(), 'tp-bench-'));
const modules = [
  'authorizer',
  'session-authorizer',
  ...new Set(routes.map((r) => r.handler)),
  'webhook-fanout',
  'webhook-delivery',
  'stuck-reindex',
  'retention',
];
/** Functions behind no route: the webhook pipeline, the stuck index's re-index and the retention run. */
const BACKGROUND = ['webhook-fanout', 'webhook-delivery', 'stuck-reindex', 'retention'];
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
/** A measured number, or why there is none. */
type Figure = { value: number } | { reason: string };
const show = (f: Figure, unit: string, digits = 1) => ('value' in f ? `${f.value.toFixed(digits)}${unit}` : `not measured (${f.reason})`);
/** Figures for the closing table: each tracked figure and its goal. */
const goals: { figure: string; now: string; goal: string; met: boolean | undefined }[] = [];
const goal = (figure: string, now: string, target: string, met: boolean | undefined) => goals.push({ figure, now, goal: target, met });

/** `BENCH_SECTIONS=5,6` runs only those sections; the others' figures say they were skipped. */
const only = process.env.BENCH_SECTIONS?.split(',').map((x) => x.trim());
const want = (section: string) => !only || only.includes(section);
const skipped = (figure: string, target: string) => goal(figure, 'not measured: skipped by BENCH_SECTIONS', target, undefined);
const missingInit: string[] = [];
if (want('1')) {
  const { BUNDLING, LAMBDA_ALIASES } = await import('../../infra/constructs/table-function');
  console.log(`1-2. Bundles (esbuild, ESM, minified, SDK bundled, ${BUNDLING.target}) and module init, in turns with a bare handler`);
  /** A handler that bundles the same DynamoDB client and nothing else: the floor for init. */
  const BARE = '__bare-ddb';
  writeFileSync(
    join(out, `${BARE}.ts`),
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({ region: process.env.AWS_REGION }));
export const handler = async () => ddb.send(new GetCommand({ TableName: 'bench', Key: { PK: 'x', SK: 'x' } }));
`,
  );
  const { bundle: bundleFunction } = await import('./bundles');
  const costs = new Map<string, [string, number][]>();
  const bundle = async (m: string) => {
    const file = join(out, `${m}.mjs`);
    if (m !== BARE) {
      costs.set(m, (await bundleFunction(m, file)).byPackage);
      return file;
    }
    await build({
      entryPoints: [join(out, `${BARE}.ts`)],
      absWorkingDir: root,
      nodePaths: [join(root, 'node_modules')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: BUNDLING.target,
      minify: BUNDLING.minify,
      mainFields: BUNDLING.mainFields,
      alias: LAMBDA_ALIASES,
      banner: { js: BUNDLING.banner! },
      outfile: file,
      logLevel: 'error',
    });
    return file;
  };
  // The environment each function gets from the stack (values need only be well formed: nothing is called at import).
  const lambdaEnv = {
    ...process.env,
    TABLE_NAME: 'bench',
    AWS_REGION: 'us-east-1',
    WEBHOOK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-delivery',
    WEBHOOK_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-delivery-dlq',
    POWERTOOLS_SERVICE_NAME: 'bench',
    POWERTOOLS_METRICS_NAMESPACE: 'bench',
  };
  const initOnce = (file: string): number | string => {
    const r = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `const t=performance.now();await import(${JSON.stringify(file)});console.log(performance.now()-t)`],
      { env: lambdaEnv, encoding: 'utf8' },
    );
    const ms = Number(r.stdout.trim());
    if (r.status !== 0 || !Number.isFinite(ms) || ms <= 0)
      return (
        r.stderr
          .trim()
          .split('\n')
          .find((l) => /Error/.test(l)) ?? `exit ${r.status}`
      ).slice(0, 100);
    return ms;
  };
  const files = new Map<string, string>();
  const sizes = new Map<string, number>();
  for (const m of [BARE, ...modules]) {
    const file = await bundle(m);
    files.set(m, file);
    sizes.set(m, statSync(file).size);
  }
  // Rounds: every bundle once per round, the bare handler between each, so machine noise hits all alike.
  const runs = new Map<string, number[]>([...files.keys()].map((m) => [m, []]));
  const failed = new Map<string, string>();
  const ROUNDS = Number(process.env.BENCH_INIT_ROUNDS ?? 3);
  for (let round = 0; round < ROUNDS; round++) {
    for (const m of modules) {
      for (const which of [BARE, m]) {
        if (failed.has(which)) continue;
        const r = initOnce(files.get(which)!);
        if (typeof r === 'string') failed.set(which, r);
        else runs.get(which)!.push(r);
      }
    }
  }
  const initOf = (m: string): Figure => (failed.has(m) ? { reason: `import failed: ${failed.get(m)}` } : { value: median(runs.get(m)!) });
  const bare = initOf(BARE);
  console.log(`  ${'bare handler + SDK'.padEnd(24)} ${kb(sizes.get(BARE)!).padStart(7)}  init ${show(bare, ' ms')}  (the floor)`);
  let biggestApi = 0;
  for (const m of modules) {
    const file = files.get(m)!;
    const size = sizes.get(m)!;
    const gz = gzipSync(readFileSync(file)).length;
    const init = initOf(m);
    if (!('value' in init)) missingInit.push(m);
    const ratio = 'value' in init && 'value' in bare ? `${(init.value / bare.value).toFixed(2)}× bare` : 'ratio not measured';
    if (!BACKGROUND.includes(m)) biggestApi = Math.max(biggestApi, size);
    console.log(`  ${m.padEnd(24)} ${kb(size).padStart(7)}  gzip ${kb(gz).padStart(6)}  init ${show(init, ' ms')}  ${ratio}`);
  }
  const apiModules = modules.filter((m) => !BACKGROUND.includes(m));
  const apiSizes = apiModules.map((m) => sizes.get(m)!);
  console.log('  what each dependency costs in the three biggest bundles (esbuild metafile, bytes in the minified output):');
  for (const m of [...modules].sort((a, b) => sizes.get(b)! - sizes.get(a)!).slice(0, 3)) {
    console.log(
      `    ${m} (${kb(sizes.get(m)!)}): ${costs
        .get(m)!
        .slice(0, 8)
        .map(([pkg, bytes]) => `${pkg} ${(bytes / 1024).toFixed(1)} KB`)
        .join(', ')}`,
    );
  }
  goal(
    'Bundles per API function (minified)',
    `${kb(Math.min(...apiSizes))}–${kb(Math.max(...apiSizes))}`,
    'at most 400 KB',
    biggestApi <= 400 * 1024,
  );
  goal(
    'Bundles, background functions',
    BACKGROUND.map((m) => `${m} ${kb(sizes.get(m)!)}`).join(', '),
    'at most 400 KB',
    BACKGROUND.every((m) => sizes.get(m)! <= 400 * 1024),
  );
  for (const m of ['webhook-fanout', 'webhook-delivery']) {
    const init = initOf(m);
    goal(
      `Init time of ${m}`,
      `${show(init, ' ms')}${'value' in init && 'value' in bare ? ` (${(init.value / bare.value).toFixed(2)}× bare)` : ''}`,
      'its real time',
      'value' in init,
    );
  }
} else {
  skipped('Bundles per API function (minified)', 'at most 400 KB');
  skipped('Init time of webhook-fanout and webhook-delivery', 'their real time');
}

if (want('3')) {
  console.log('\n3. DynamoDB calls and latency per route (local gateway + DynamoDB Local, 1,000 candidates)');
  const ddbLocal = await startDynamoDbLocal();
  try {
    await ensureTable(localClient(ddbLocal.endpoint), 'bench');
    process.env.TABLE_NAME = 'bench';
    process.env.DYNAMODB_ENDPOINT = ddbLocal.endpoint;
    process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
    const { ddbClient } = await import('../../lib/store/client');
    const sent: string[] = [];
    ddbClient.middlewareStack.add(
      (next, ctx) => (args) => {
        sent.push(String(ctx.commandName));
        return next(args);
      },
      { step: 'initialize' },
    );
    const { createTenant } = await import('../../lib/store/tenants');
    const { createToken } = await import('../../lib/store/tokens');
    const { createRequisition } = await import('../../lib/store/requisitions');
    const { createGateway } = await import('../../dev/gateway');
    const tenant = await createTenant('bench', 'Bench');
    const { token } = await createToken(tenant, 'bench', ['*']);
    const req = await createRequisition(tenant.id, { title: 'Bench', status: 'open' });
    const gateway = createGateway();
    const url = await gateway.listen(0);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: (await res.json()) as any };
    };
    const ids: string[] = [];
    for (let i = 0; i < 1000; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, j) => call('POST', '/api/v1/candidates', { name: `C${i + j}`, req_id: req.id })),
      );
      ids.push(...batch.map((b) => b.json.data.id));
    }
    const stages = ['ai_screened', 'interviewed'];
    const routeFigures = new Map<string, { calls: string; p50: number }>();
    const cases: [string, string, () => unknown][] = [
      ['GET', '/api/v1/candidates', () => undefined],
      ['GET', '/api/v1/candidates?stage=applied&limit=200', () => undefined],
      ['GET', `/api/v1/candidates?req_id=${req.id}&offset=500&limit=50`, () => undefined],
      ['GET', '/api/v1/requisitions', () => undefined],
      ['GET', '/api/v1/pipeline', () => undefined],
      ['POST', '/api/v1/candidates', () => ({ name: 'Bench', req_id: req.id })],
      [
        'POST',
        '/api/v1/pipeline',
        () => ({ candidate_id: ids[Math.floor(Math.random() * ids.length)], stage: stages[Math.floor(Math.random() * 2)] }),
      ],
    ];
    for (const [method, path, body] of cases) {
      await call(method, path, body() as object);
      const times: number[] = [];
      let calls = '';
      for (let i = 0; i < 50; i++) {
        sent.length = 0;
        const t = performance.now();
        const res = await call(method, path, body() as object);
        times.push(performance.now() - t);
        if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.json)}`);
        const summary = summarize(sent);
        if (!calls || summary.length > calls.length) calls = summary;
      }
      if (method === 'GET' && (path === '/api/v1/pipeline' || path === '/api/v1/requisitions'))
        routeFigures.set(path, { calls, p50: pct(times, 50) });
      console.log(
        `  ${`${method} ${path.split('?')[0]}${path.includes('?') ? '?…' : ''}`.padEnd(28)} ${calls.padEnd(42)} p50 ${pct(times, 50).toFixed(1)} ms  p99 ${pct(times, 99).toFixed(1)} ms`,
      );
    }
    // Workspace routes: the session authorizer runs on every request (never cached).
    const { createUser } = await import('../../lib/store/users');
    const { hashPassword } = await import('../../lib/auth/password');
    const password = 'bench password 123';
    await createUser(tenant.id, 'bench@example.com', await hashPassword(password), 'admin');
    const logins: number[] = [];
    let cookie = '';
    for (let i = 0; i < 10; i++) {
      sent.length = 0;
      const t = performance.now();
      const res = await fetch(`${url}/api/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'bench@example.com', password }),
      });
      logins.push(performance.now() - t);
      cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
    }
    console.log(
      `  ${'POST /api/session (login)'.padEnd(28)} ${summarize(sent).padEnd(42)} p50 ${pct(logins, 50).toFixed(1)} ms  p99 ${pct(logins, 99).toFixed(1)} ms  (scrypt N=2^17)`,
    );
    for (const path of ['/api/session', '/api/tokens', '/api/overview', '/api/members', '/api/settings/pipeline']) {
      const times: number[] = [];
      let calls = '';
      for (let i = 0; i < 50; i++) {
        sent.length = 0;
        const t = performance.now();
        await fetch(`${url}${path}`, { headers: { Cookie: cookie } });
        times.push(performance.now() - t);
        calls = summarize(sent);
      }
      console.log(
        `  ${`GET ${path}`.padEnd(28)} ${calls.padEnd(42)} p50 ${pct(times, 50).toFixed(1)} ms  p99 ${pct(times, 99).toFixed(1)} ms  (incl. session authorizer)`,
      );
    }
    const pipe = routeFigures.get('/api/v1/pipeline');
    const reqs = routeFigures.get('/api/v1/requisitions');
    if (pipe && reqs) {
      const n = pipe.calls.split(' + ').reduce((sum, part) => sum + Number(part.split('×')[0]), 0);
      goal(
        'GET /api/v1/pipeline calls (1,000 candidates; pinned at 100 and 10,000 by calls.test.ts)',
        pipe.calls,
        'at most 2 calls',
        n <= 2,
      );
      goal(
        'Local p50 of GET /api/v1/pipeline',
        `${pipe.p50.toFixed(1)} ms (${(pipe.p50 / reqs.p50).toFixed(2)}× requisitions' ${reqs.p50.toFixed(1)} ms)`,
        'within 1.5× of GET /api/v1/requisitions',
        pipe.p50 <= 1.5 * reqs.p50,
      );
    }
    await gateway.close();
  } finally {
    await ddbLocal.stop();
  }
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
  const webhookBench = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), ['scripts/bench/webhooks.ts'], {
    cwd: root,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: join(out, 'cert.pem'), BENCH_CERT: join(out, 'cert.pem'), BENCH_KEY: join(out, 'key.pem') },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  process.stdout.write(webhookBench.stdout ?? '');
  if (webhookBench.status !== 0) console.log(`  webhook bench failed (exit ${webhookBench.status})`);
  const deliveryBench = spawnSync(
    join(root, 'node_modules', '.bin', 'tsx'),
    ['scripts/bench/delivery.ts', process.env.BENCH_DELIVERIES ?? '3000'],
    {
      cwd: root,
      env: {
        ...process.env,
        BENCH_PROFILE: '1',
        NODE_EXTRA_CA_CERTS: join(out, 'cert.pem'),
        BENCH_CERT: join(out, 'cert.pem'),
        BENCH_KEY: join(out, 'key.pem'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    },
  );
  const figureLine = /^RESULT delivery_per_s=(\S+) ok=(\S+)$/m;
  process.stdout.write(deliveryBench.stdout.replace(new RegExp(`${figureLine.source}\\n?`, 'm'), ''));
  const rate = figureLine.exec(deliveryBench.stdout);
  const deliveries: Figure =
    rate && rate[2] === 'true'
      ? { value: Number(rate[1]) }
      : { reason: rate ? 'the delivery check failed (see above)' : `delivery bench exited ${deliveryBench.status} before measuring it` };
  goal(
    'Deliveries per second, one delivery worker, local HTTPS receiver (pre-filled queue)',
    show(deliveries, '/s', 0),
    'at least 500/s',
    'value' in deliveries ? deliveries.value >= 500 : undefined,
  );
} else skipped('Deliveries per second, one delivery worker', 'at least 500/s');

if (want('6')) {
  console.log('\n6. Load: autocannon against npm start, mixed reads and writes, 30 s at 16 connections');
  const { loadRun } = await import('./load');
  const load = await loadRun({
    root,
    dataDir: join(out, 'load-data'),
    seconds: Number(process.env.BENCH_LOAD_SECONDS ?? 30),
    connections: 16,
  });
  for (const line of load.lines) console.log(`  ${line}`);
  goal('Load run: requests/s, p50, p99, errors (30 s, 16 connections)', load.summary, 'measured; no errors', load.ok);
  goal('Counters exact after the load run', load.counters, 'exact', load.countersExact);
} else skipped('Load run (30 s, 16 connections)', 'measured; no errors');

if (want('7')) {
  console.log('\n7. Workspace console: first page load (the JS index.html loads; budget 150 KB gzipped) and each route chunk');
  {
    const { ensureConsoleBuilt, CONSOLE_DIST } = await import('../../console/build');
    const { weightReport } = await import('./console-weight');
    const built = await ensureConsoleBuilt();
    const lines = built.status === 'failed' ? [`not measured: the build failed: ${built.error}`] : weightReport(CONSOLE_DIST);
    for (const line of lines) console.log(`  ${line}`);
  }
}

if (want('8')) {
  const size = Number(process.env.BENCH_SEARCH_CANDIDATES ?? 100_000);
  console.log(`\n8. Search and board pages in a workspace of ${size.toLocaleString('en')} candidates (local gateway + DynamoDB Local)`);
  const searchBench = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), ['scripts/bench/search.ts'], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const figureLine = /^RESULT size=(\d+) plain_p50=(\S+) search_p50=(\S+)$/m;
  process.stdout.write(searchBench.stdout.replace(new RegExp(`${figureLine.source}\\n?`, 'm'), ''));
  const r = figureLine.exec(searchBench.stdout);
  const ratio: Figure = r
    ? { value: Number(r[3]) / Number(r[2]) }
    : { reason: `search bench exited ${searchBench.status} before measuring it` };
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
  const importBench = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), ['scripts/bench/imports.ts'], {
    cwd: root,
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'WARN' },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const line = /^RESULT seconds=(\S+) rows=(\d+) rps=(\S+) cpu=(\S+) dbcpu=(\S+) rss=(\S+) heap=(\S+) mb=(\S+) exact=(\w+)$/m;
  const printed = importBench.stdout.split('\n').filter((l) => !l.startsWith('{') && !line.test(l));
  process.stdout.write(`${printed.join('\n')}\n`);
  const r = line.exec(importBench.stdout);
  const why = `import bench exited ${importBench.status} before measuring it`;
  goal(
    'Local import of 10,000 rows, POST to completed',
    r
      ? `${r[1]} s (${r[3]} rows/s; CPU per row ${r[4]} ms in Node, ${r[5] === 'none' ? 'not measured (no /proc)' : `${r[5]} ms`} in DynamoDB Local; counts and events exact: ${r[9]})`
      : `not measured (${why})`,
    'at most 60 s',
    r ? Number(r[1]) <= 60 : undefined,
  );
  goal(
    'Peak memory importing a 5 MB file',
    r ? `${r[6]} MB peak RSS (the bundled worker alone, ${r[8]} MB file)` : `not measured (${why})`,
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
  const auditBench = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), ['scripts/bench/audit.ts'], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const figureLine = /^RESULT size=(\d+) max_calls=(\d+) p50=(\S+)$/m;
  process.stdout.write(auditBench.stdout.replace(new RegExp(`${figureLine.source}\\n?`, 'm'), ''));
  const r = figureLine.exec(auditBench.stdout);
  goal(
    `Audit log first page: DynamoDB calls, worst filter${r ? `, ${Number(r[1]).toLocaleString('en')} records` : ''}`,
    r
      ? `${r[2]} (slowest p50 ${Number(r[3]).toFixed(1)} ms)`
      : `not measured (audit bench exited ${auditBench.status} before measuring it)`,
    'at most 2 at 100,000 records',
    // Judged only at the size the goal names; a smaller log reached in the seed budget is shown, not judged.
    r && Number(r[1]) >= 100_000 ? Number(r[2]) <= 2 : undefined,
  );
} else skipped('Audit log first page: DynamoDB calls, worst filter', 'at most 2 at 100,000 records');

if (want('12')) {
  console.log('\n12. Erasure of a candidate with 40 events delivered to 3 endpoints (DynamoDB Local)');
  const run = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), ['scripts/bench/erasure.ts'], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const line = /^RESULT ms=(\S+) items=(\d+) left=(\d+)$/m;
  process.stdout.write(run.stdout.replace(new RegExp(`${line.source}\\n?`, 'm'), ''));
  const r = line.exec(run.stdout);
  goal(
    'Erasure, 40 events x 3 endpoints: time, items scrubbed',
    r ? `${Number(r[1]).toFixed(0)} ms, ${r[2]} items, ${r[3]} left in a full Scan` : `not measured (erasure bench exited ${run.status})`,
    'under 5 s locally, nothing left',
    r ? Number(r[1]) < 5000 && r[3] === '0' : undefined,
  );
} else skipped('Erasure, 40 events x 3 endpoints: time, items scrubbed', 'under 5 s locally, nothing left');

console.log('\nGoals, figure by figure');
const w = Math.max(...goals.map((g) => g.figure.length));
const nw = Math.max(...goals.map((g) => g.now.length));
for (const g of goals)
  console.log(
    `  ${g.figure.padEnd(w)}  ${g.now.padEnd(nw)}  goal: ${g.goal}  ${g.met === undefined ? '(not measured)' : g.met ? 'met' : 'NOT met'}`,
  );
if (missingInit.length) console.log(`  init not measured for: ${missingInit.join(', ')}`);
console.log(
  `  machine: ${cpus().length} cores; load average ${loadAtStart} at the start, ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end (1, 5, 15 min)`,
);
rmSync(out, { recursive: true, force: true });
