/**
 * What the Powertools Tracer costs per function: each function bundled as the stack bundles it,
 * with its DynamoDB client wrapped by the Tracer (as lib/tracer.ts would do it everywhere), and
 * again with lib/tracer.ts swapped for a no-op stub. Prints bundle size and module init time
 * (median of 7 fresh Node processes, AWS_EXECUTION_ENV set so the Tracer starts as in Lambda).
 * It measures the choice in lib/tracer.ts: why only the webhook pipeline is traced.
 *
 *   npx tsx infra/bench/tracing-cost.ts [function ...]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { routes } from '../../lib/routes';
import { BUNDLING } from '../stack';

const root = join(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'tp-tracing-'));
const all = ['authorizer', 'session-authorizer', ...new Set(routes.map((r) => r.handler)), 'webhook-fanout', 'webhook-delivery'];
const modules = process.argv.length > 2 ? process.argv.slice(2) : all;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (n: number) => (n / 1024).toFixed(1);

const noTracer: Plugin = {
  name: 'no-tracer',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/(.*\/)?tracer(\.ts)?$/ }, () => ({ path: 'stub', namespace: 'no-tracer' }));
    b.onLoad({ filter: /.*/, namespace: 'no-tracer' }, () => ({
      contents: 'export const tracer = { captureAWSv3Client: (c) => c };',
      loader: 'js',
    }));
  },
};

async function bundle(m: string, plugins: Plugin[], suffix: string) {
  const file = join(out, `${m}${suffix}.mjs`);
  await build({
    stdin: {
      contents: `export * from './functions/${m}.ts'; import { tracer } from './lib/tracer.ts'; import { ddbClient } from './lib/store/client.ts'; tracer.captureAWSv3Client(ddbClient);`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLING.target,
    minify: BUNDLING.minify,
    mainFields: BUNDLING.mainFields,
    banner: { js: BUNDLING.banner! },
    outfile: file,
    logLevel: 'error',
    plugins,
  });
  const inits: number[] = [];
  for (let i = 0; i < 7; i++) {
    const r = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `const t=performance.now();await import(${JSON.stringify(file)});console.log(performance.now()-t)`],
      {
        env: {
          PATH: process.env.PATH,
          TABLE_NAME: 'bench',
          AWS_REGION: 'us-east-1',
          AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
          WEBHOOK_QUEUE_URL: 'http://q',
          WEBHOOK_DLQ_URL: 'http://dlq',
        },
        encoding: 'utf8',
      },
    );
    inits.push(Number(r.stdout.trim()));
  }
  return { size: statSync(file).size, init: median(inits) };
}

console.log('function              without KB   with KB   cost KB   init without ms   init with ms');
for (const m of modules) {
  const a = await bundle(m, [noTracer], '.plain');
  const b = await bundle(m, [], '.traced');
  console.log(
    `${m.padEnd(22)}${kb(a.size).padStart(10)}${kb(b.size).padStart(10)}${kb(b.size - a.size).padStart(10)}${a.init.toFixed(1).padStart(18)}${b.init.toFixed(1).padStart(15)}`,
  );
}
