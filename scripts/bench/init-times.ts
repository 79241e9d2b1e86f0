/**
 * Bench sections 1 and 2: each function's bundle (the stack's own esbuild options), raw and
 * gzipped, what each dependency costs in the biggest, and module init time of each bundle in a
 * fresh Node process, measured in turns with a bare handler that bundles the same DynamoDB client
 * (the ratio cancels machine noise).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { routes } from '../../lib/routes';
import { type Figure, goal, show } from './goals';
import { median } from './stats';

/** Functions behind no route: the webhook pipeline, the stuck index's re-index, the retention run and the import worker. */
// The last two are deployed only with a mail domain (not in the default stack), and held to the same budget.
const BACKGROUND = [
  'webhook-fanout',
  'webhook-delivery',
  'stuck-reindex',
  'retention',
  'import-worker',
  'interview-invitations',
  'scorecard-reminders',
];
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

/**
 * One module init of a bundle in a fresh Node process with `env`: milliseconds, or the first
 * error line (or exit status) when the import failed.
 */
export function initOnce(file: string, env: NodeJS.ProcessEnv): number | string {
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `const t=performance.now();await import(${JSON.stringify(file)});console.log(performance.now()-t)`],
    { env, encoding: 'utf8' },
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
}

/** Bundles every function into `out` and prints sections 1 and 2; returns the functions whose init could not be measured. */
export async function bundleFigures(root: string, out: string): Promise<string[]> {
  const modules = ['authorizer', 'session-authorizer', ...new Set(routes.map((r) => r.handler)), ...BACKGROUND];
  const missingInit: string[] = [];
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
        const r = initOnce(files.get(which)!, lambdaEnv);
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
  return missingInit;
}
