/**
 * The audit log's safety net (lib/store/audit.ts) keeps a candidate's personal values out of every
 * record by reading the declared personal fields through lib/entity.ts personalFieldsOf, a registry
 * that a declaration fills when its module loads: so that the functions that never touch a
 * candidate need not bundle its declaration. Each function that writes a candidate's audit record
 * must then bundle it; this holds that, from the bundles as the stack builds them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';
import { esbuildOptions } from '../../scripts/bench/bundles';

const out = mkdtempSync(join(tmpdir(), 'tp-entity-bundles-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Every function whose code writes an audit record with a candidate as its target. */
const CANDIDATE_AUDITORS = [
  'create-candidate',
  'update-candidate',
  'change-stage',
  'erase-candidate',
  'import-worker',
  'retention',
  'careers-withdraw',
];

it.each(CANDIDATE_AUDITORS)(
  '%s bundles the candidate declaration, so its audit records know the personal fields',
  async (fn) => {
    const result = await build({ ...esbuildOptions(fn), outfile: join(out, `${fn}.mjs`), metafile: true });
    const inputs = Object.keys(Object.values(result.metafile.outputs)[0]!.inputs);
    expect(inputs).toContain('lib/store/audit.ts');
    expect(inputs).toContain('lib/entities/candidate.ts');
  },
  60_000,
);
