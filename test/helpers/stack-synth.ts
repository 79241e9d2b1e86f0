/**
 * The deployed stack (default props, esbuild bundling included), synthesized once per vitest run
 * and shared by every unit test file that asks for it (test/unit/stack/*, stack-split.test.ts).
 *
 * Bundling 40-odd functions is the slowest thing in the unit tier (over two minutes on two busy
 * cores), and each test file runs in a process of its own, so an in-memory cache would not be
 * shared. The first to ask synthesizes into the directory the unit project's global setup
 * (test/helpers/unit-global-setup.ts) made; a `mkdir` lock makes that one even when files run in
 * parallel, and the others wait for it and read the cloud assembly from disk. Under `npm test`
 * the global setup starts it at once in a process of its own (stack-synth-main.ts); otherwise it
 * stays lazy, so that running any other unit file costs nothing extra.
 *
 * A test that needs the construct tree (cdk-nag's Validations plugin) or other props cannot use
 * this and synthesizes its own stack.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { synthesizeInto } from './stack-synth-main';
import { flattenedTemplate, stackTemplates, type StackTemplate } from './stack-templates';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export interface SharedStack {
  /**
   * The stack's CloudFormation template with its nested stacks merged in (stack-templates.ts
   * flattenedTemplate): the deployed system as one template.
   */
  template: { Resources: Record<string, Json>; Outputs: Record<string, Json> };
  /** Each template as CloudFormation receives it: the stack's, then its nested stacks'. */
  stacks: StackTemplate[];
  /** The cloud assembly directory, with the bundles. */
  assemblyDir: string;
  /** Asset S3 object key -> its directory inside the cloud assembly (function bundles, the console). */
  assetDirByKey: Map<string, string>;
  /** The built-console stand-in the stack was synthesized with; also for other synths. */
  consoleDir: string;
  /**
   * `<module>.mjs` for every module of functions/, the mail domain's included: the bundles the
   * synth's bundling copied (test/helpers/prebuilt-bundles.ts).
   */
  bundlesDir: string;
}

/** The longest a file waits for another file's synth (one took 131 s under load). */
const WAIT_MS = 290_000;

/** The shared synth of the default stack; the first caller in a run synthesizes it. */
export async function sharedStack(): Promise<SharedStack> {
  const shared = inject('stackSynth');
  if (!shared) throw new Error('no shared synth directory: run this file in the vitest "unit" project (its globalSetup provides it)');
  const { root, consoleDir } = shared;
  const assemblyDir = path.join(root, 'cdk.out');
  const done = path.join(root, 'done.json');
  const failed = path.join(root, 'failed.txt');

  if (!synthesizeInto(root, consoleDir)) {
    const deadline = Date.now() + WAIT_MS;
    while (!existsSync(done)) {
      if (existsSync(failed)) throw new Error(`the shared synth failed in another process:\n${readFileSync(failed, 'utf8')}`);
      if (Date.now() > deadline) throw new Error(`no shared synth after ${WAIT_MS / 1000} s (${root})`);
      await sleep(200);
    }
  }

  const { artifactId } = JSON.parse(readFileSync(done, 'utf8')) as { artifactId: string };
  const manifest = JSON.parse(readFileSync(path.join(assemblyDir, `${artifactId}.assets.json`), 'utf8'));
  const assetDirByKey = new Map<string, string>();
  for (const file of Object.values<Json>(manifest.files)) {
    for (const dest of Object.values<Json>(file.destinations)) assetDirByKey.set(dest.objectKey, path.join(assemblyDir, file.source.path));
  }
  return {
    template: flattenedTemplate(assemblyDir, artifactId),
    stacks: stackTemplates(assemblyDir, artifactId),
    assemblyDir,
    assetDirByKey,
    consoleDir,
    bundlesDir: path.join(root, 'bundles'),
  };
}
