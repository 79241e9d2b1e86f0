/**
 * The shared synth's bundles, built together in one esbuild run (test/helpers/prebuilt-bundles.ts),
 * are the stack's own per-function bundles byte for byte: two route functions with permission
 * lines (the placeholder swapped for their JSON, which esbuild prints in other quotes) and a
 * background function with none. Read from the run's shared synth (test/helpers/stack-synth.ts),
 * whose bundles the stack tests read, rather than from a build of these three of its own.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLER, lambdaBuildOptions, routeLinesOf } from '../../infra/constructs/table-function';
import { functionModules } from '../helpers/prebuilt-bundles';
import { sharedStack } from '../helpers/stack-synth';

const dir = mkdtempSync(path.join(tmpdir(), 'tp-prebuilt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MODULES = ['get-candidate', 'create-token', 'webhook-delivery'];

describe('bundles built together', () => {
  it('are each the bundle the stack builds for that function alone', async () => {
    expect(Object.keys(routeLinesOf('get-candidate')).length).toBeGreaterThan(0);
    expect(Object.keys(routeLinesOf('webhook-delivery'))).toEqual([]);
    for (const m of MODULES) expect(functionModules()).toContain(m);
    const { bundlesDir } = await sharedStack();
    for (const m of MODULES) {
      const alone = path.join(dir, 'alone', m, 'index.mjs');
      execFileSync(process.execPath, [BUNDLER, JSON.stringify({ ...lambdaBuildOptions(m), outfile: alone })], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const expected = readFileSync(alone, 'utf8');
      expect(expected.length, m).toBeGreaterThan(10_000);
      expect(readFileSync(path.join(bundlesDir, `${m}.mjs`), 'utf8') === expected, m).toBe(true);
    }
  }, 300_000);
});
