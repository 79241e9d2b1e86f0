/**
 * The checks `npm test` runs beside vitest (scripts/test.ts), side by side with each other:
 * Biome, and the generated API types followed by `tsc -p .` and `tsc -p console`. Run
 * one after another they took the sum of their times with one core idle (tsc is
 * single-threaded). Each one's output is printed whole
 * when it ends, in the order listed; the exit code is 1 when any of them failed.
 * Run it under `npm run`/`npm test`, which puts node_modules/.bin on PATH.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TSC = fileURLToPath(new URL('../node_modules/native-tsc/bin/tsc', import.meta.url));

// The generated API types (console/src/api/schema.d.ts) are read by both type checks: the
// console's client and the tests' (test/helpers/api.ts). So both wait for them.
const types = ['tsx', 'console/scripts/api-types.ts'];
// TypeScript 7, the native compiler (devDependency `native-tsc`), named by its path: the
// `typescript` package is TypeScript 5, which openapi-typescript needs, and its `tsc` bin competes
// for node_modules/.bin/tsc. Single-threaded: its parallel checkers cost twice the CPU time on
// this project, and the two checks already run beside each other and beside vitest.
const tsc = (project: string) => [process.execPath, TSC, '-p', project, '--singleThreaded'];
const checks: { name: string; steps: string[][]; after?: string[] }[] = [
  { name: 'biome check .', steps: [['biome', 'check', '.']] },
  { name: 'console:types, tsc -p .', steps: [tsc('.')], after: types },
  { name: 'console:types, tsc -p console', steps: [tsc('console')], after: types },
];

const running = new Set<ChildProcess>();
// Stopped (by npm test's runner, or Ctrl-C), stop the checks too rather than leave them behind.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    for (const c of running) c.kill(signal);
    process.exit(1);
  });

function step([cmd, ...args]: string[], output: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    child.on('exit', () => running.delete(child));
    child.stdout.on('data', (d) => output.push(String(d)));
    child.stderr.on('data', (d) => output.push(String(d)));
    child.on('error', (err) => {
      output.push(`${cmd}: ${err.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const started = performance.now();
const typesOutput: string[] = [];
const typesRun = step(types, typesOutput);
const results = checks.map(async ({ name, steps, after }) => {
  const output: string[] = [];
  let code = after ? await typesRun : 0;
  // The types' own output, printed once, with the first check that waited for them.
  if (after) output.push(...typesOutput.splice(0));
  for (const s of code === 0 ? steps : []) {
    code = await step(s, output);
    if (code !== 0) break;
  }
  return { name, code, output: output.join(''), seconds: (performance.now() - started) / 1000 };
});
let failed = 0;
for (const r of await Promise.all(results)) {
  process.stdout.write(`> ${r.name}: ${r.code === 0 ? 'ok' : `failed (exit ${r.code})`} after ${r.seconds.toFixed(1)} s\n${r.output}`);
  if (r.code !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
