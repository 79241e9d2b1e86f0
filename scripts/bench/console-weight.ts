/**
 * The console's JavaScript weight, gzipped: the first load (the scripts and module preloads that
 * console/dist/index.html itself references: what a browser fetches before the first page
 * renders), and each lazily loaded route chunk (what a first visit to that page adds).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

export const CONSOLE_JS_BUDGET_BYTES = 150 * 1024;

export type Weight =
  | { measured: true; files: { path: string; raw: number; gzip: number }[]; raw: number; gzip: number }
  | { measured: false; reason: string };

/** Sum the JS files index.html loads (script src, modulepreload), raw and gzip level 9. */
export function firstLoadJs(distDir: string): Weight {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return { measured: false, reason: `${index} does not exist (the console is not built)` };
  const html = readFileSync(index, 'utf8');
  const refs = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) refs.add(m[1]!);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) refs.add(m[1]!);
  if (refs.size === 0) return { measured: false, reason: 'index.html references no script' };
  const files = [];
  for (const ref of refs) {
    if (/^[a-z]+:/i.test(ref) || ref.startsWith('//'))
      return { measured: false, reason: `index.html loads a script from elsewhere: ${ref}` };
    const file = join(distDir, ref.replace(/^\//, ''));
    if (!existsSync(file)) return { measured: false, reason: `index.html references ${ref}, which is not in ${distDir}` };
    const body = readFileSync(file);
    files.push({ path: ref, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  return { measured: true, files, raw: files.reduce((a, f) => a + f.raw, 0), gzip: files.reduce((a, f) => a + f.gzip, 0) };
}

export interface FileWeight {
  path: string;
  raw: number;
  gzip: number;
}

/** A route chunk: the chunk `import()` loads and the files it imports that the first load lacks. */
export interface LazyWeight {
  /** The chunk's name without its content hash (the page module's name: `requisition`). */
  name: string;
  files: FileWeight[];
  raw: number;
  gzip: number;
}

export type LazyWeights = { measured: true; chunks: LazyWeight[] } | { measured: false; reason: string };

// What the bundler writes: `import("./x.js")` for a lazy chunk; `from"./x.js"` or `import"./x.js"` for a static import.
const DYNAMIC = /\bimport\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g;
const STATIC = /(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g;

/**
 * The lazily loaded chunks reachable from the first load, each with the files a first visit adds
 * (the chunk and its static imports not already loaded), gzipped like `firstLoadJs`.
 */
export function lazyChunks(distDir: string): LazyWeights {
  const first = firstLoadJs(distDir);
  if (!first.measured) return first;
  const read = (ref: string) => {
    const file = join(distDir, ref.replace(/^\//, ''));
    return existsSync(file) ? readFileSync(file) : undefined;
  };
  const refsIn = (ref: string, re: RegExp) => {
    const body = read(ref)?.toString('utf8') ?? '';
    return [...body.matchAll(re)].map((m) => posix.join(posix.dirname(ref), m[1]!));
  };
  /** `refs` and everything they import statically. */
  const closure = (refs: string[]) => {
    const seen = new Set<string>();
    const todo = [...refs];
    while (todo.length) {
      const ref = todo.pop()!;
      if (seen.has(ref)) continue;
      seen.add(ref);
      todo.push(...refsIn(ref, STATIC));
    }
    return seen;
  };
  const loaded = closure(first.files.map((f) => f.path));
  const chunks: LazyWeight[] = [];
  const visited = new Set<string>();
  const todo = [...loaded].flatMap((r) => refsIn(r, DYNAMIC));
  while (todo.length) {
    const chunk = todo.shift()!;
    if (visited.has(chunk) || loaded.has(chunk)) continue;
    visited.add(chunk);
    const adds = [...closure([chunk])].filter((r) => !loaded.has(r));
    const files: FileWeight[] = [];
    for (const ref of adds) {
      const body = read(ref);
      if (!body) return { measured: false, reason: `${ref} is imported but not in ${distDir}` };
      files.push({ path: ref, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
      todo.push(...refsIn(ref, DYNAMIC));
    }
    const name = posix
      .basename(chunk)
      .replace(/-[\w-]{8}\.js$/, '')
      .replace(/\.js$/, '');
    chunks.push({ name, files, raw: files.reduce((a, f) => a + f.raw, 0), gzip: files.reduce((a, f) => a + f.gzip, 0) });
  }
  return { measured: true, chunks: chunks.sort((a, b) => a.name.localeCompare(b.name)) };
}

const kb = (n: number) => (n / 1024).toFixed(1);

/** The bench's lines: each first-load file, the first-load total against the budget, then each route chunk. */
export function weightReport(distDir: string): string[] {
  const w = firstLoadJs(distDir);
  if (!w.measured) return [`not measured: ${w.reason}`];
  const lines = w.files.map((f) => `${f.path.padEnd(36)} ${kb(f.raw).padStart(6)} KB  gzip ${kb(f.gzip).padStart(5)} KB`);
  const share = ((100 * w.gzip) / CONSOLE_JS_BUDGET_BYTES).toFixed(0);
  lines.push(
    `total first-load JS: gzip ${kb(w.gzip)} KB of the ${CONSOLE_JS_BUDGET_BYTES / 1024} KB budget (${share}%)${w.gzip > CONSOLE_JS_BUDGET_BYTES ? '  OVER BUDGET' : ''}`,
  );
  const lazy = lazyChunks(distDir);
  if (!lazy.measured) lines.push(`route chunks not measured: ${lazy.reason}`);
  else if (lazy.chunks.length === 0) lines.push('route chunks: none (every page is in the first load)');
  else
    for (const c of lazy.chunks)
      lines.push(
        `route chunk ${c.name.padEnd(24)} ${kb(c.raw).padStart(6)} KB  gzip ${kb(c.gzip).padStart(5)} KB  (first visit: gzip ${kb(w.gzip + c.gzip)} KB in all)`,
      );
  return lines;
}
