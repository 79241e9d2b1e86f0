/**
 * `npm run bench`: the numbers we track, printed, never asserted.
 *  1. bundle size per function (the stack's own esbuild options), raw and gzip;
 *  2. module init time of each bundle in a fresh Node process (median of 5);
 *  3. DynamoDB calls and local latency per route, against DynamoDB Local;
 *  4. `npm start` time to ready, first start (seeding) and restart;
 *  5. webhooks through the local pipeline;
 *  6. the workspace console's first-load JavaScript, gzipped, beside its 150 KB budget.
 */
import '../local/quiet-sdk';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { routes } from '../../lib/routes';
import { startDynamoDbLocal } from '../local/dynamodb';
import { ensureTable, localClient } from '../local/table';

const root = join(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'tp-bench-'));
const modules = ['authorizer', 'session-authorizer', ...new Set(routes.map((r) => r.handler)), 'webhook-fanout', 'webhook-delivery'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const summarize = (sent: string[]) =>
  Object.entries(sent.reduce<Record<string, number>>((a, c) => ((a[c] = (a[c] ?? 0) + 1), a), {}))
    .map(([c, n]) => `${n}×${c.replace('Command', '')}`)
    .join(' + ');
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

console.log('1-2. Bundles (esbuild, ESM, minified, SDK bundled, node22) and module init');
const { BUNDLING } = await import('../stack');
for (const m of modules) {
  const file = join(out, `${m}.mjs`);
  await build({
    entryPoints: [join(root, 'functions', `${m}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLING.target,
    minify: BUNDLING.minify,
    mainFields: BUNDLING.mainFields,
    banner: { js: BUNDLING.banner! },
    outfile: file,
    logLevel: 'error',
  });
  const size = statSync(file).size;
  const gz = gzipSync(readFileSync(file)).length;
  const inits: number[] = [];
  for (let i = 0; i < 5; i++) {
    const r = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `const t=performance.now();await import(${JSON.stringify(file)});console.log(performance.now()-t)`],
      { env: { ...process.env, TABLE_NAME: 'bench', AWS_REGION: 'us-east-1' }, encoding: 'utf8' },
    );
    inits.push(Number(r.stdout.trim()));
  }
  console.log(`  ${m.padEnd(18)} ${kb(size).padStart(7)}  gzip ${kb(gz).padStart(6)}  init ${median(inits).toFixed(1)} ms`);
}

console.log('\n3. DynamoDB calls and latency per route (local gateway + DynamoDB Local, 1,000 candidates)');
const ddbLocal = await startDynamoDbLocal();
try {
  await ensureTable(localClient(ddbLocal.endpoint), 'bench');
  process.env.TABLE_NAME = 'bench';
  process.env.DYNAMODB_ENDPOINT = ddbLocal.endpoint;
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  const { ddbClient } = await import('../../lib/store/client');
  const sent: string[] = [];
  ddbClient.middlewareStack.add((next, ctx) => (args) => (sent.push(String(ctx.commandName)), next(args)), { step: 'initialize' });
  const { createTenant } = await import('../../lib/store/tenants');
  const { createToken } = await import('../../lib/store/tokens');
  const { createRequisition } = await import('../../lib/store/requisitions');
  const { createGateway } = await import('../local/gateway');
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
  const cases: [string, string, () => unknown][] = [
    ['GET', '/api/v1/candidates', () => undefined],
    ['GET', '/api/v1/candidates?stage=applied&limit=200', () => undefined],
    ['GET', `/api/v1/candidates?req_id=${req.id}&offset=500&limit=50`, () => undefined],
    ['GET', '/api/v1/requisitions', () => undefined],
    ['GET', '/api/v1/pipeline', () => undefined],
    ['POST', '/api/v1/candidates', () => ({ name: 'Bench', req_id: req.id })],
    ['POST', '/api/v1/pipeline', () => ({ candidate_id: ids[Math.floor(Math.random() * ids.length)], stage: stages[Math.floor(Math.random() * 2)] })],
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
    console.log(`  ${`${method} ${path.split('?')[0]}${path.includes('?') ? '?…' : ''}`.padEnd(28)} ${calls.padEnd(42)} p50 ${pct(times, 50).toFixed(1)} ms  p99 ${pct(times, 99).toFixed(1)} ms`);
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
  console.log(`  ${'POST /api/session (login)'.padEnd(28)} ${summarize(sent).padEnd(42)} p50 ${pct(logins, 50).toFixed(1)} ms  p99 ${pct(logins, 99).toFixed(1)} ms  (scrypt N=2^17)`);
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
    console.log(`  ${`GET ${path}`.padEnd(28)} ${calls.padEnd(42)} p50 ${pct(times, 50).toFixed(1)} ms  p99 ${pct(times, 99).toFixed(1)} ms  (incl. session authorizer)`);
  }
  await gateway.close();
} finally {
  await ddbLocal.stop();
}

console.log('\n4. npm start, time to ready');
const dataDir = join(out, 'data');
for (const label of ['first start (creates table, seeds)', 'restart (existing data)']) {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += d;
      if (buf.includes('Talent Pipeline is running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`npm start exited early (${code}): ${buf}`)));
  });
  console.log(`  ${label.padEnd(36)} ${((performance.now() - started) / 1000).toFixed(2)} s`);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

console.log('\n5. Webhooks through the local pipeline (https receiver on 127.0.0.1)');
const { generate } = await import('selfsigned');
const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
  keyType: 'ec',
  algorithm: 'sha256',
  extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
});
writeFileSync(join(out, 'cert.pem'), pems.cert);
writeFileSync(join(out, 'key.pem'), pems.private);
const webhookBench = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), ['infra/bench/webhooks.ts'], {
  cwd: root,
  env: { ...process.env, NODE_EXTRA_CA_CERTS: join(out, 'cert.pem'), BENCH_CERT: join(out, 'cert.pem'), BENCH_KEY: join(out, 'key.pem') },
  stdio: 'inherit',
});
if (webhookBench.status !== 0) console.log(`  webhook bench failed (exit ${webhookBench.status})`);

console.log('\n6. Workspace console, first page load (the JS index.html loads; budget 150 KB gzipped)');
{
  const { ensureConsoleBuilt, CONSOLE_DIST } = await import('../../console/build');
  const { firstLoadJs, CONSOLE_JS_BUDGET_BYTES } = await import('./console-weight');
  const built = await ensureConsoleBuilt();
  const w = built.status === 'failed' ? { measured: false as const, reason: `the build failed: ${built.error}` } : firstLoadJs(CONSOLE_DIST);
  if (!w.measured) console.log(`  not measured: ${w.reason}`);
  else {
    for (const f of w.files) console.log(`  ${f.path.padEnd(36)} ${(f.raw / 1024).toFixed(1).padStart(6)} KB  gzip ${(f.gzip / 1024).toFixed(1).padStart(5)} KB`);
    const share = ((100 * w.gzip) / CONSOLE_JS_BUDGET_BYTES).toFixed(0);
    console.log(`  total first-load JS: gzip ${(w.gzip / 1024).toFixed(1)} KB of the ${CONSOLE_JS_BUDGET_BYTES / 1024} KB budget (${share}%)${w.gzip > CONSOLE_JS_BUDGET_BYTES ? '  OVER BUDGET' : ''}`);
  }
}
rmSync(out, { recursive: true, force: true });
