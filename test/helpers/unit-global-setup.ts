import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { lowerPriority } from './priority';
import { UNIT_CDK_CONTEXT } from '../../vitest.config';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where test/helpers/stack-synth.ts keeps the one synthesized stack of this run. */
    stackSynth: { root: string; consoleDir: string };
  }
}

/**
 * Global setup of the `unit` project: a directory for the shared stack synth and a built-console
 * stand-in inside it. Under `npm test` (TP_EAGER_SYNTH, set by scripts/test.ts) it also starts
 * the synth at once in a process of its own, at a low priority: the bundling (about 30 s of one
 * core) then fills the browser and e2e files' waits instead of holding up the unit tier, which
 * vitest runs last.
 * Otherwise it synthesizes nothing: a run of unit files that never ask for the stack
 * (test/helpers/stack-synth.ts) must not pay for the bundling.
 */
export default function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'tp-stack-synth-'));
  // A built console stand-in: the page, a hashed asset and a root file, as Vite lays them out.
  const consoleDir = join(root, 'console');
  mkdirSync(join(consoleDir, 'assets'), { recursive: true });
  writeFileSync(
    join(consoleDir, 'index.html'),
    '<!doctype html><title>Talent Pipeline</title><script type="module" src="/assets/index-abc123.js"></script>',
  );
  writeFileSync(join(consoleDir, 'assets', 'index-abc123.js'), 'console.log(1);');
  writeFileSync(join(consoleDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  project.provide('stackSynth', { root, consoleDir });
  const eager =
    process.env.TP_EAGER_SYNTH === '1'
      ? spawn(process.execPath, ['--import', 'tsx', 'test/helpers/stack-synth-main.ts', root, consoleDir], {
          stdio: 'ignore',
          // As the unit project's workers synthesize (vitest.config.ts): without CDK's built-in
          // CloudFormation check, which only warns, nor stack traces.
          env: { ...process.env, CDK_VALIDATION: 'false', CDK_CONTEXT_JSON: UNIT_CDK_CONTEXT },
        })
      : undefined;
  // At a low priority: the unit files that read it run last, and meanwhile it takes the CPU that
  // the other tiers' files leave idle rather than competing with them. A unit file waiting for it
  // leaves a core to it.
  if (eager?.pid) lowerPriority(eager.pid, 19);
  // Watch mode keeps this directory across reruns: the stack code may have changed, so a rerun
  // synthesizes again.
  project.onTestsRerun(() => {
    for (const entry of ['lock', 'done.json', 'failed.txt', 'cdk.out', 'bundles'])
      rmSync(join(root, entry), { recursive: true, force: true });
  });
  return () => {
    if (eager && eager.exitCode === null && eager.signalCode === null) eager.kill();
    rmSync(root, { recursive: true, force: true });
  };
}
