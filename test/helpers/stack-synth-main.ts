/**
 * The shared synth of the default stack (stack-synth.ts) without vitest, so that `npm test` can
 * run it in a process of its own from the start of the run (test/helpers/unit-global-setup.ts):
 * `node --import tsx test/helpers/stack-synth-main.ts <root> <consoleDir>`.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App } from 'aws-cdk-lib';
import { TalentPipelineStack } from '../../infra/stack';
import { prebuildBundles } from './prebuilt-bundles';

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
  const saved = process.env.TP_PREBUILT_BUNDLES;
  try {
    const started = performance.now();
    // Every function's bundle in one esbuild run (prebuilt-bundles.ts), which the stack's bundling
    // then copies; the variable is restored below (a unit worker may run this).
    const bundles = path.join(root, 'bundles');
    prebuildBundles(bundles);
    process.env.TP_PREBUILT_BUNDLES = bundles;
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
    if (saved === undefined) delete process.env.TP_PREBUILT_BUNDLES;
    else process.env.TP_PREBUILT_BUNDLES = saved;
  }
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root, consoleDir] = process.argv.slice(2);
  if (!root || !consoleDir) throw new Error('usage: stack-synth-main.ts <root> <consoleDir>');
  synthesizeInto(root, consoleDir);
}
