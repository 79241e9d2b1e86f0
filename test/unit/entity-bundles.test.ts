/**
 * The audit log's safety net (lib/store/audit.ts) keeps a candidate's personal values out of every
 * record by reading the declared personal fields through lib/entity.ts personalFieldsOf, a registry
 * that a declaration fills when its module loads: so that the functions that never touch a
 * candidate need not bundle its declaration. Each function that writes a candidate's audit record
 * must then bundle it; this holds that, from the bundles as the stack builds them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
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

/**
 * Every auditor in one esbuild run, each an entry point of its own: each output is the bundle a
 * build of that entry alone writes (no code splitting; test/unit/prebuilt-bundles.test.ts), with
 * the AWS SDK and lib/ parsed once instead of once per function. The permission lines
 * (lambdaDefine) are the first function's for all: data, which changes no import.
 */
let inputsOf: Promise<Map<string, string[]>> | undefined;
const bundledInputs = () =>
  (inputsOf ??= build({
    ...esbuildOptions(CANDIDATE_AUDITORS[0]!),
    entryPoints: Object.fromEntries(CANDIDATE_AUDITORS.map((fn) => [fn, esbuildOptions(fn).entryPoints[0]!])),
    outdir: out,
    outExtension: { '.js': '.mjs' },
    metafile: true,
  }).then(
    (result) =>
      new Map(
        Object.entries(result.metafile.outputs).flatMap(([file, output]) =>
          output.entryPoint ? [[basename(file, '.mjs'), Object.keys(output.inputs)]] : [],
        ),
      ),
  ));

it.each(CANDIDATE_AUDITORS)(
  '%s bundles the candidate declaration, so its audit records know the personal fields',
  async (fn) => {
    const inputs = (await bundledInputs()).get(fn);
    expect(inputs, fn).toBeDefined();
    expect(inputs).toContain('lib/store/audit.ts');
    expect(inputs).toContain('lib/entities/candidate.ts');
  },
  60_000,
);
