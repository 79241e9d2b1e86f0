import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { firstLoadJs } from '../../scripts/bench/console-weight';

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
});
