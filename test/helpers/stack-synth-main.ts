/**
 * The shared synth of the default stack (stack-synth.ts) without vitest, so that `npm test` can
 * run it in a process of its own from the start of the run (test/helpers/unit-global-setup.ts):
 * `node --import tsx test/helpers/stack-synth-main.ts <root> <consoleDir>`.
 */
import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { App } from 'aws-cdk-lib';
import { TalentPipelineStack } from '../../infra/stack';

const LOCAL_BIN = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));

/**
 * CDK runs the project's own esbuild as `npx --no-install esbuild ...`, once per function: each
 * npx is a Node process loading npm (about a second of CPU, as much as the bundle itself, 40-odd
 * times a run). This puts first on PATH an `npx` that runs `--no-install <bin>` straight from
 * node_modules/.bin (the same esbuild, the same arguments, so the same bundles) and hands
 * anything else to the real npx. Returns the PATH to synthesize with.
 */
function pathWithDirectNpx(root: string): string {
  const dirs = (process.env.PATH ?? '').split(path.delimiter);
  const realNpx = dirs.map((d) => path.join(d, 'npx')).find((p) => existsSync(p)) ?? 'npx';
  const bin = path.join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  const shim = path.join(bin, 'npx');
  writeFileSync(
    shim,
    `#!/bin/sh\nif [ "$1" = "--no-install" ] && [ -x "${LOCAL_BIN}/$2" ]; then shift; bin="$1"; shift; exec "${LOCAL_BIN}/$bin" "$@"; fi\nexec "${realNpx}" "$@"\n`,
  );
  chmodSync(shim, 0o755);
  return [bin, ...dirs].join(path.delimiter);
}

/**
 * Synthesize the default stack into `root` unless another process already took the lock there.
 * True when this call did it (the result, or the error in `failed.txt`, is on disk); false when
 * someone else holds the lock. `npm test` starts it at the beginning of the run, in a process of
 * its own (below), so the bundling overlaps the other tiers.
 */
export function synthesizeInto(root: string, consoleDir: string): boolean {
  try {
    mkdirSync(path.join(root, 'lock'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  }
  const done = path.join(root, 'done.json');
  const PATH = process.env.PATH;
  try {
    const started = performance.now();
    // CDK's bundling spawns with this process's environment; restored below (a unit worker may run this).
    process.env.PATH = pathWithDirectNpx(root);
    const app = new App({ outdir: path.join(root, 'cdk.out') });
    const stack = new TalentPipelineStack(app, 'TalentPipeline', { consoleDir });
    app.synth();
    const ms = Math.round(performance.now() - started);
    // Written whole, then renamed: a waiting file never reads half of it.
    writeFileSync(`${done}.tmp`, JSON.stringify({ artifactId: stack.artifactId, ms }));
    renameSync(`${done}.tmp`, done);
    console.info(`shared synth with bundling took ${ms} ms`);
  } catch (err) {
    writeFileSync(path.join(root, 'failed.txt'), String((err as Error).stack ?? err));
    throw err;
  } finally {
    if (PATH === undefined) delete process.env.PATH;
    else process.env.PATH = PATH;
  }
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root, consoleDir] = process.argv.slice(2);
  if (!root || !consoleDir) throw new Error('usage: stack-synth-main.ts <root> <consoleDir>');
  synthesizeInto(root, consoleDir);
}
