/**
 * The file parsers load only in the functions that use them. A function's bundle is everything
 * its handler imports, transitively; this walks the project's own imports from every
 * functions/*.ts (the same graph esbuild follows) and fails when one reaches a parser module or
 * package, unless the function is one that reads files (FILE_READERS, empty until the file
 * worker exists). Static, so it costs no bundling; the bench prints the bytes
 * (scripts/bench/files.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
/** Modules and packages only a file-reading function may load. */
const PARSER_MODULES = ['lib/files/sniff.ts', 'lib/files/extract.ts'];
const PARSER_PACKAGES = ['file-type', 'unpdf', 'mammoth'];
/** Functions allowed to load them (the file worker). */
const FILE_READERS = new Set<string>(['file-worker']);

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

function resolveLocal(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate;
  }
  return undefined;
}

/** Every project file and package a module reaches through its imports. */
function reach(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      if (spec.startsWith('.')) {
        const local = resolveLocal(file, spec);
        if (local) todo.push(local);
      } else {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
  }
  return { files, packages };
}

describe('file parsers stay out of the functions that do not read files', () => {
  const functions = readdirSync(join(ROOT, 'functions')).filter((f) => f.endsWith('.ts'));

  it('the walk sees what a parser module loads (so an empty answer below means something)', () => {
    const { packages } = reach(join(ROOT, 'lib/files/extract.ts'));
    expect([...packages]).toEqual(expect.arrayContaining(['unpdf', 'mammoth']));
    expect([...reach(join(ROOT, 'lib/files/sniff.ts')).packages]).toContain('file-type');
  });

  it('no handler in functions/ reaches lib/files/sniff.ts, lib/files/extract.ts, file-type, unpdf or mammoth', () => {
    expect(functions.length).toBeGreaterThan(10);
    const offenders: string[] = [];
    for (const fn of functions) {
      if (FILE_READERS.has(fn.replace(/\.ts$/, ''))) continue;
      const { files, packages } = reach(join(ROOT, 'functions', fn));
      for (const m of PARSER_MODULES) if (files.has(join(ROOT, m))) offenders.push(`${fn} -> ${m}`);
      for (const p of PARSER_PACKAGES) if (packages.has(p)) offenders.push(`${fn} -> ${p}`);
    }
    expect(offenders).toEqual([]);
  });

  it('the light modules a route may use (limits, keys, filename, verify) import no parser', () => {
    for (const m of ['limits', 'keys', 'filename', 'verify', 'hash', 'suggest']) {
      const { files, packages } = reach(join(ROOT, 'lib/files', `${m}.ts`));
      expect(
        [...files].map((f) => relative(ROOT, f)).filter((f) => PARSER_MODULES.includes(f)),
        m,
      ).toEqual([]);
      expect(
        [...packages].filter((p) => PARSER_PACKAGES.includes(p)),
        m,
      ).toEqual([]);
    }
  });
});
