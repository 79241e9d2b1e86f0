/**
 * Every source file of the project, tests included, stays at most MAX_LINES lines: a file that
 * grows past it is split by subject (a resource's schemas and routes beside its entity, a test
 * file by what it covers), so that a reader finds a rule or a test by its name. Generated and
 * built files (git-ignored) are not source.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAX_LINES = 450;
/** The folders that hold code; the code files at the top level count too. */
const ROOTS = ['lib', 'functions', 'dev', 'scripts', 'infra', 'console', 'test'];
/** Not source: dependencies, builds and what a build or a script writes (all git-ignored). */
const SKIP = new Set(['node_modules', 'dist', 'cdk.out', '.data', 'coverage']);
const GENERATED = new Set(['console/src/api/schema.d.ts']);
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

const codeFiles = (dir: string): string[] =>
  readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : codeFiles(path);
    return CODE.test(e.name) && !GENERATED.has(path) ? [path] : [];
  });

it(`no source file is over ${MAX_LINES} lines`, () => {
  const top = readdirSync(PROJECT_ROOT, { withFileTypes: true })
    .filter((e) => e.isFile() && CODE.test(e.name))
    .map((e) => e.name);
  const files = [...top, ...ROOTS.flatMap(codeFiles)];
  expect(files.length).toBeGreaterThan(500);
  const over = files.flatMap((path) => {
    const lines = readFileSync(join(PROJECT_ROOT, path), 'utf8').replace(/\n$/, '').split('\n').length;
    return lines > MAX_LINES ? [`${path}: ${lines} lines`] : [];
  });
  expect(over).toEqual([]);
});
