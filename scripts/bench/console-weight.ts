/**
 * The console's first-load JavaScript: the scripts and module preloads that console/dist/index.html
 * itself references (what a browser fetches before the first page renders), gzipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
