/**
 * Every function's bundle in one esbuild run, for the unit tier's shared synth
 * (stack-synth-main.ts): a run per function parses the AWS SDK and lib/ again each time, well
 * over a hundred times a synth; one run with every function as an entry point parses them once
 * and writes each entry's bundle as a build of that entry alone writes it (no code splitting).
 * The synth's bundling then copies these (TP_PREBUILT_BUNDLES, read by lambdaCode in
 * infra/constructs/table-function.ts) instead of running the bundler per function.
 *
 * The functions' options differ only in their entry and in one define, their permission lines
 * (TP_ROUTE_ROLES): the run builds with a placeholder for it, which is then swapped, as esbuild
 * prints that string, for each function's value as esbuild prints it. test/unit/prebuilt-bundles.test.ts
 * holds the result to the stack's own per-function bundles, byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { BUNDLER, entryFor, lambdaBuildOptions, lambdaDefine, PROJECT_ROOT } from '../../infra/constructs/table-function';

const ROLES = 'process.env.TP_ROUTE_ROLES';

/** Every module of functions/: the stack's, and those only a mail domain deploys. */
export const functionModules = () =>
  readdirSync(path.join(PROJECT_ROOT, 'functions'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -'.ts'.length))
    .sort();

/** A JavaScript string expression as esbuild's minifier prints it in an argument position. */
function printed(expression: string): string {
  const out = transformSync(`f(${expression});`, { minify: true }).code.trim();
  const m = /^f\(([\s\S]*)\);$/.exec(out);
  if (!m) throw new Error(`esbuild printed ${out} for ${expression}`);
  return m[1]!;
}

/** Writes `<dir>/<module>.mjs` for each of `modules`, each the bundle lambdaCode would build for it. */
export function prebuildBundles(dir: string, modules: string[] = functionModules()): void {
  const placeholder = JSON.stringify(`TP_ROUTE_ROLES_PLACEHOLDER_${process.pid}_${Date.now()}`);
  const shared = lambdaBuildOptions(modules[0]!);
  const options = {
    ...shared,
    entryPoints: Object.fromEntries(modules.map((m) => [m, entryFor(m)])),
    define: { ...shared.define, [ROLES]: placeholder },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
  };
  // The bundler's own script, in a process of its own as the stack runs it: its plugins need
  // esbuild's asynchronous API, and the synth that calls this is synchronous.
  execFileSync(process.execPath, [BUNDLER, JSON.stringify(options)], { stdio: ['ignore', 'ignore', 'inherit'] });
  const mark = printed(placeholder);
  for (const m of modules) {
    const file = path.join(dir, `${m}.mjs`);
    const bundle = readFileSync(file, 'utf8');
    // A function that imports no permission lines has no placeholder to swap.
    if (!bundle.includes(mark)) continue;
    const value = printed(lambdaDefine(m)[ROLES]!);
    writeFileSync(
      file,
      bundle.replaceAll(mark, () => value),
    );
  }
}
