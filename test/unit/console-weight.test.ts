import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { firstLoadJs, lazyChunks, weightReport } from '../../scripts/bench/console-weight';

const dirs: string[] = [];
const dist = (files: Record<string, string>) => {
  const d = mkdtempSync(join(tmpdir(), 'tp-weight-'));
  dirs.push(d);
  for (const [p, body] of Object.entries(files)) {
    mkdirSync(join(d, p, '..'), { recursive: true });
    writeFileSync(join(d, p), body);
  }
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('console first-load JS weight', () => {
  it('sums the entry script and module preloads index.html references, not other chunks', () => {
    const entry = 'console.log("entry");'.repeat(50);
    const shared = 'export const x = 1;'.repeat(20);
    const d = dist({
      'index.html':
        '<script type="module" crossorigin src="/assets/index-a.js"></script><link rel="modulepreload" crossorigin href="/assets/shared-b.js"><link rel="stylesheet" href="/assets/a.css">',
      'assets/index-a.js': entry,
      'assets/shared-b.js': shared,
      'assets/lazy-page.js': 'x'.repeat(10_000),
    });
    const w = firstLoadJs(d);
    expect(w.measured).toBe(true);
    if (!w.measured) return;
    expect(w.files.map((f) => f.path)).toEqual(['/assets/index-a.js', '/assets/shared-b.js']);
    expect(w.raw).toBe(entry.length + shared.length);
    expect(w.gzip).toBe(gzipSync(entry, { level: 9 }).length + gzipSync(shared, { level: 9 }).length);
  });

  it('says why when it cannot measure, instead of printing a number', () => {
    expect(firstLoadJs(join(tmpdir(), 'tp-weight-none-at-all'))).toMatchObject({
      measured: false,
      reason: expect.stringContaining('not built'),
    });
    expect(firstLoadJs(dist({ 'index.html': '<p>no scripts</p>' }))).toEqual({
      measured: false,
      reason: 'index.html references no script',
    });
    expect(firstLoadJs(dist({ 'index.html': '<script src="/assets/gone.js"></script>' }))).toMatchObject({ measured: false });
    expect(firstLoadJs(dist({ 'index.html': '<script src="https://cdn.example/x.js"></script>' }))).toMatchObject({ measured: false });
  });

  it('weighs each lazily loaded route chunk with the files it adds, not those the first load has', () => {
    const entry = 'import{a}from"./shared-s1234567.js";const p=()=>import(`./board-b1234567.js`);const q=()=>import("./docs-d1234567.js");';
    const shared = 'export const a=1;'.repeat(30);
    const board =
      'import{a}from"./shared-s1234567.js";import{x}from"./board-dep-c1234567.js";const n=()=>import(`./nested-n1234567.js`);'.repeat(3);
    const boardDep = 'export const x=2;'.repeat(40);
    const docs = 'export const Docs=3;'.repeat(10);
    const nested = 'export const N=4;'.repeat(5);
    const d = dist({
      'index.html': '<script type="module" src="/assets/index-a.js"></script>',
      'assets/index-a.js': entry,
      'assets/shared-s1234567.js': shared,
      'assets/board-b1234567.js': board,
      'assets/board-dep-c1234567.js': boardDep,
      'assets/docs-d1234567.js': docs,
      'assets/nested-n1234567.js': nested,
      'assets/unreferenced-u1234567.js': 'x'.repeat(5_000),
    });
    const w = lazyChunks(d);
    expect(w.measured).toBe(true);
    if (!w.measured) return;
    const gz = (s: string) => gzipSync(s, { level: 9 }).length;
    expect(w.chunks.map((c) => [c.name, c.files.map((f) => f.path)])).toEqual([
      ['board', ['/assets/board-b1234567.js', '/assets/board-dep-c1234567.js']],
      ['docs', ['/assets/docs-d1234567.js']],
      ['nested', ['/assets/nested-n1234567.js']],
    ]);
    expect(w.chunks[0]!.gzip).toBe(gz(board) + gz(boardDep));
    expect(w.chunks[1]!.raw).toBe(docs.length);

    const lines = weightReport(d);
    expect(lines.find((l) => l.startsWith('total first-load JS'))).toMatch(/of the 150 KB budget/);
    expect(lines.filter((l) => l.startsWith('route chunk ')).map((l) => l.split(/\s+/)[2])).toEqual(['board', 'docs', 'nested']);
  });

  it('says why route chunks were not measured, and says so when there are none', () => {
    expect(weightReport(join(tmpdir(), 'tp-weight-none-at-all'))).toEqual([expect.stringMatching(/^not measured: .*not built/)]);
    const missing = dist({
      'index.html': '<script src="/assets/index-a.js"></script>',
      'assets/index-a.js': 'const p=()=>import("./gone-g1234567.js");',
    });
    expect(lazyChunks(missing)).toMatchObject({ measured: false, reason: expect.stringContaining('gone-g1234567.js') });
    const single = dist({ 'index.html': '<script src="/assets/index-a.js"></script>', 'assets/index-a.js': 'console.log(1);' });
    expect(weightReport(single).at(-1)).toBe('route chunks: none (every page is in the first load)');
  });
});
