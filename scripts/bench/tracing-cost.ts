/**
 * What the Powertools Tracer costs per function, as the stack ships it. Each function is bundled
 * four ways, with the stack's esbuild options:
 * - `off`: the Tracer aliased to a stand-in that is off (no Tracer, no X-Ray SDK in the bundle),
 *   written next to the bundles: what a function would weigh untraced;
 * - `shipped`: exactly as the stack bundles it (LAMBDA_ALIASES: every function is traced);
 * - `full SDK`: traced, but with the X-Ray SDK's own entry instead of lib/aws/xray-sdk-core.ts and
 *   lib/aws/no-emitter-binding.cjs (what those aliases save).
 * Then module init time of `off` and `shipped`, in turns in fresh Node processes (median of
 * TRACING_INIT_RUNS, default 9), with AWS_EXECUTION_ENV and LAMBDA_TASK_ROOT set so the Tracer and
 * the X-Ray SDK start as in Lambda. The machine is shared: compare the two columns of one run, not
 * runs with each other.
 *
 *   npx tsx scripts/bench/tracing-cost.ts [function ...]
 */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { routes } from '../../lib/routes';
import { LAMBDA_ALIASES } from '../../infra/constructs/table-function';
import { esbuildOptions } from './bundles';
import { initOnce } from './init-times';
import { median } from './stats';

const out = mkdtempSync(join(tmpdir(), 'tp-tracing-'));
const all = [
  'authorizer',
  'session-authorizer',
  ...new Set(routes.map((r) => r.handler)),
  'webhook-fanout',
  'webhook-delivery',
  'stuck-reindex',
];
const modules = process.argv.length > 2 ? process.argv.slice(2) : all;
const RUNS = Number(process.env.TRACING_INIT_RUNS ?? 9);
const kb = (n: number) => (n / 1024).toFixed(1);

// The Tracer as it is outside Lambda, with only the members lib/tracer.ts and the clients' modules call.
writeFileSync(
  join(out, 'tracer-off.mjs'),
  `export class Tracer {
  provider = { setContextMissingStrategy: () => undefined };
  isTracingEnabled() { return false; }
  captureAWSv3Client(client) { return client; }
}
`,
);
const TRACER_OFF = { '@aws-lambda-powertools/tracer': join(out, 'tracer-off.mjs') };
const { 'aws-xray-sdk-core': _entry, 'emitter-listener': _emitter, ...WITHOUT_XRAY_ALIASES } = LAMBDA_ALIASES;
const variants = {
  off: { ...LAMBDA_ALIASES, ...TRACER_OFF },
  shipped: LAMBDA_ALIASES,
  fullSdk: WITHOUT_XRAY_ALIASES,
} satisfies Record<string, Record<string, string>>;

async function bundle(m: string, variant: keyof typeof variants) {
  const file = join(out, `${m}.${variant}.mjs`);
  await build({ ...esbuildOptions(m, variants[variant]), outfile: file });
  return { file, size: statSync(file).size };
}

const env = {
  PATH: process.env.PATH,
  TABLE_NAME: 'bench',
  AWS_REGION: 'us-east-1',
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
  LAMBDA_TASK_ROOT: '/var/task',
  POWERTOOLS_SERVICE_NAME: 'bench',
  WEBHOOK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-delivery',
  WEBHOOK_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-delivery-dlq',
};
/** Module init in a fresh process, or why it could not be measured. */

console.log(
  `Tracer cost per function (KB minified; init: median of ${RUNS} fresh processes, off and shipped in turns; the machine is shared and noisy)`,
);
console.log('function                 tracer       off KB  shipped KB  full SDK KB  Tracer KB  init off ms  init shipped ms');
for (const m of modules) {
  const off = await bundle(m, 'off');
  const shipped = await bundle(m, 'shipped');
  const fullSdk = await bundle(m, 'fullSdk');
  const times: Record<'off' | 'shipped', number[]> = { off: [], shipped: [] };
  let failed: string | undefined;
  for (let i = 0; i < RUNS && !failed; i++) {
    for (const [which, file] of [
      ['off', off.file],
      ['shipped', shipped.file],
    ] as const) {
      const r = initOnce(file, env);
      if (typeof r === 'string') failed = r;
      else times[which].push(r);
    }
  }
  const init = (which: 'off' | 'shipped') => (failed ? 'not measured' : median(times[which]).toFixed(1));
  console.log(
    `${m.padEnd(25)}${(shipped.size === off.size ? 'no client' : 'traced').padEnd(10)}${kb(off.size).padStart(9)}${kb(shipped.size).padStart(12)}${kb(fullSdk.size).padStart(13)}${kb(shipped.size - off.size).padStart(11)}${init('off').padStart(13)}${init('shipped').padStart(17)}${failed ? `  (import failed: ${failed})` : ''}`,
  );
}
