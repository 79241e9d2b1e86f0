/**
 * Files, measured locally (`tsx scripts/bench/files.ts`; `npm run bench` prints it as a section
 * once wired there): printed, never asserted.
 *  - text extraction of a two-page CV in each format: the first call (the parser loading, as in a
 *    cold worker) and the median of five more; goal under 2 s;
 *  - the peak RSS of a process that loads the bundled byte check and extraction and runs them on
 *    a 20 MB PDF and a 20 MB DOCX, as the file worker's Lambda would; goal under 512 MB;
 *  - the bundle weight the parsers add to a function that uses them, what the upload and download
 *    helpers (S3 client, presigner) add, and what a function that touches no file carries of
 *    them (zero).
 * The last line is `RESULT key=value …` for the bench's closing table.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { extractText } from '../../lib/files/extract';
import { type AllowedContentType, MAX_UPLOAD_BYTES } from '../../lib/files/limits';
import { CV_LINES, docx, odt, pdf, rtf, txt, zip, docxFiles } from '../../test/helpers/file-fixtures';
import { esbuildOptions } from './bundles';
import { median } from './stats';

const ROOT = join(import.meta.dirname, '..', '..');
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

/** Two pages of a plausible CV: the fixture's lines and forty more of experience. */
const page2 = Array.from(
  { length: 40 },
  (_, i) => `${2010 + (i % 14)}: project ${i}, loops and punched cards, Bernoulli numbers, tables ${i * 7}`,
);
const CV: [string, Uint8Array, AllowedContentType][] = [
  ['PDF', pdf([CV_LINES, page2]), 'application/pdf'],
  ['DOCX', docx([...CV_LINES, ...page2]), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['ODT', odt([...CV_LINES, ...page2]), 'application/vnd.oasis.opendocument.text'],
  ['RTF', rtf([...CV_LINES, ...page2]), 'application/rtf'],
  ['TXT', txt([...CV_LINES, ...page2]), 'text/plain'],
];

async function extraction() {
  const rows: { format: string; firstMs: number; warmMs: number }[] = [];
  for (const [format, bytes, type] of CV) {
    let t = performance.now();
    const first = await extractText(bytes, type);
    const firstMs = performance.now() - t;
    if (!first.ok) throw new Error(`${format}: ${first.reason}`);
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      t = performance.now();
      await extractText(bytes, type);
      warm.push(performance.now() - t);
    }
    rows.push({ format, firstMs, warmMs: median(warm) });
  }
  return rows;
}

/** A PDF of just under `bytes`: pages of text in uncompressed content streams. */
export function bigPdf(bytes: number): Uint8Array {
  const line = 'Experience: loops, punched cards, Bernoulli numbers, tables and engines of every kind.';
  const perPage = Array.from({ length: 50 }, (_, i) => `${i} ${line}`);
  const pageBytes = pdf([perPage, perPage]).length - pdf([perPage]).length;
  return pdf(Array.from({ length: Math.floor(bytes / pageBytes) - 1 }, () => perPage));
}

/**
 * A DOCX whose document.xml is about `mb` MiB (the worst the byte check lets through is just under
 * ARCHIVE_LIMITS.maxEntryBytes): long paragraphs of words drawn from a vocabulary of 4,096 by a
 * fixed LCG, which deflates about 3:1, so that the file stays under 20 MB.
 */
function bigDocx(mb: number): Uint8Array {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 8;
  const vocabulary = Array.from({ length: 4096 }, () => Array.from({ length: 7 }, () => String.fromCharCode(97 + (next() % 26))).join(''));
  const paragraph = () => Array.from({ length: 200 }, () => vocabulary[next() & 4095]).join(' ');
  return zip(docxFiles(Array.from({ length: Math.floor((mb * 1024 * 1024) / 1600) }, paragraph)));
}

interface Run {
  bytes: number;
  importMs: number;
  ms: number;
  kind: string;
  ok: boolean;
  chars: number;
  truncated: boolean;
  loadedMb: number;
  peakMb: number;
}

/** The byte check and extraction, bundled as the stack bundles a function, run in a fresh process on one file. */
async function peakRss(dir: string, bundleFile: string, file: Uint8Array, name: string): Promise<Run | { error: string }> {
  const input = join(dir, `${name}.bin`);
  writeFileSync(input, file);
  const runner = join(dir, 'run.mjs');
  writeFileSync(
    runner,
    `import { readFileSync } from 'node:fs';
const t0 = performance.now();
const { inspectFile, extractText } = await import(${JSON.stringify(bundleFile)});
const importMs = performance.now() - t0;
const loaded = process.memoryUsage().rss;
const bytes = new Uint8Array(readFileSync(process.argv[2]));
const t = performance.now();
const kind = await inspectFile(bytes);
const text = kind.ok ? await extractText(bytes, kind.contentType) : kind;
console.log(JSON.stringify({ importMs, ms: performance.now() - t, kind: kind.ok ? kind.contentType : kind.code, ok: text.ok, chars: text.text?.length ?? 0, truncated: text.truncated, loadedMb: loaded / 1048576, peakMb: process.resourceUsage().maxRSS / 1024 }));
`,
  );
  const run = spawnSync(process.execPath, [runner, input], { encoding: 'utf8', timeout: 300_000 });
  if (run.status !== 0) return { error: `exited ${run.status}: ${run.stderr.slice(-300)}` };
  return { bytes: file.length, ...(JSON.parse(run.stdout.trim().split('\n').pop()!) as Omit<Run, 'bytes'>) };
}

/** Bytes of a bundle, and of each listed package (or project path) inside it. */
async function weigh(entry: string, outfile: string, parts: string[]) {
  const result = await build({ ...esbuildOptions('list-candidates'), entryPoints: [entry], outfile, metafile: true });
  const output = Object.values(result.metafile.outputs)[0]!;
  const by = Object.fromEntries(parts.map((p) => [p, 0]));
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    for (const p of parts) if (input.includes(`node_modules/${p}/`) || input.startsWith(p)) by[p]! += bytesInOutput;
  }
  const { readFileSync } = await import('node:fs');
  return { bytes: output.bytes, gzip: gzipSync(readFileSync(outfile), { level: 9 }).length, by };
}

export async function filesBench() {
  const dir = mkdtempSync(join(tmpdir(), 'tp-files-bench-'));
  try {
    console.log('Files: text extraction of a two-page CV (first call loads the parser; then the median of 5)');
    const rows = await extraction();
    for (const r of rows)
      console.log(`  ${r.format.padEnd(5)} first ${r.firstMs.toFixed(0).padStart(5)} ms, then ${r.warmMs.toFixed(1).padStart(6)} ms`);
    const worst = Math.max(...rows.map((r) => r.firstMs));
    console.log(`  slowest first call ${worst.toFixed(0)} ms (goal < 2000 ms)`);

    const parsers = ['file-type', 'unpdf', 'mammoth', 'strtok3', '@tokenizer', 'jszip', '@xmldom', 'lib/files'];
    const readerEntry = join(dir, 'reader.ts');
    writeFileSync(
      readerEntry,
      `export { inspectFile } from ${JSON.stringify(join(ROOT, 'lib/files/sniff.ts'))};\nexport { extractText } from ${JSON.stringify(join(ROOT, 'lib/files/extract.ts'))};\n`,
    );
    const bareEntry = join(dir, 'bare.ts');
    writeFileSync(bareEntry, 'export const handler = async () => ({ statusCode: 200 });\n');
    const storeEntry = join(dir, 'store.ts');
    writeFileSync(
      storeEntry,
      `export { presignUpload } from ${JSON.stringify(join(ROOT, 'lib/files/presign.ts'))};\nexport { headObject, downloadUrl } from ${JSON.stringify(join(ROOT, 'lib/files/storage.ts'))};\nexport { checkLanded } from ${JSON.stringify(join(ROOT, 'lib/files/verify.ts'))};\n`,
    );
    const readerBundle = join(dir, 'reader.mjs');
    const reader = await weigh(readerEntry, readerBundle, parsers);
    const bare = await weigh(bareEntry, join(dir, 'bare.mjs'), parsers);
    const store = await weigh(storeEntry, join(dir, 'store.mjs'), [
      '@aws-sdk/client-s3',
      '@aws-sdk/s3-presigned-post',
      '@aws-sdk/s3-request-presigner',
      'lib/files',
    ]);
    const route = await weigh(join(ROOT, 'functions', 'list-candidates.ts'), join(dir, 'route.mjs'), [...parsers, '@aws-sdk/client-s3']);
    const parserBytes = reader.bytes - bare.bytes;
    const routeFileBytes = Object.values(route.by).reduce((a, b) => a + b, 0);
    console.log('Files: bundle weight (the stack’s esbuild options, minified)');
    console.log(
      `  byte check + extraction (the file worker's part): +${kb(parserBytes)} (${kb(reader.gzip - bare.gzip)} gzipped) over a bare handler`,
    );
    for (const [p, b] of Object.entries(reader.by).filter(([, b]) => b > 0)) console.log(`    ${p.padEnd(12)} ${kb(b)}`);
    console.log(`  presign, HeadObject, download link (the upload and file routes' part): ${kb(store.bytes)} in all`);
    for (const [p, b] of Object.entries(store.by).filter(([, b]) => b > 0)) console.log(`    ${p.padEnd(30)} ${kb(b)}`);
    console.log(`  a function that touches no file (list-candidates): ${kb(routeFileBytes)} of any of them (goal 0)`);

    console.log(
      'Files: a two-page CV in a fresh process running the bundle, as a cold worker (module load, then byte check and extraction)',
    );
    let coldWorst = 0;
    for (const [format, bytes] of CV.slice(0, 2)) {
      const r = await peakRss(dir, readerBundle, bytes, `cv-${format}`);
      if ('error' in r) {
        console.log(`  ${format}: not measured (${r.error})`);
        continue;
      }
      const total = Number(r.importMs) + Number(r.ms);
      coldWorst = Math.max(coldWorst, total);
      console.log(
        `  ${format.padEnd(5)} load ${Number(r.importMs).toFixed(0)} ms + check and extraction ${Number(r.ms).toFixed(0)} ms = ${total.toFixed(0)} ms (goal < 2000 ms)`,
      );
    }

    console.log('Files: peak RSS of the bundled byte check and extraction on a 20 MB file, in a fresh process (goal < 512 MB)');
    const peaks: Record<string, unknown> = {};
    for (const [name, file] of [
      ['PDF', bigPdf(MAX_UPLOAD_BYTES - 64 * 1024)],
      ['DOCX (document.xml just under the 50 MB entry bound)', bigDocx(47)],
      ['DOCX read by mammoth (document.xml just under its 2 MB bound)', bigDocx(1.9)],
    ] as const) {
      const r = await peakRss(dir, readerBundle, file, name);
      peaks[name] = r;
      console.log(
        'error' in r
          ? `  ${name}: not measured (${r.error})`
          : `  ${name} ${(Number(r.bytes) / 1048576).toFixed(1)} MB: peak ${Number(r.peakMb).toFixed(0)} MB (loaded ${Number(r.loadedMb).toFixed(0)} MB), ${Number(r.ms).toFixed(0)} ms, ${r.kind}, ${r.chars} characters kept${r.truncated ? ' (cut at the bound)' : ''}`,
      );
    }
    const peakValues = Object.values(peaks).flatMap((r) => ('peakMb' in (r as object) ? [Number((r as { peakMb: number }).peakMb)] : []));
    console.log(
      `  load average during the run: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} cores`,
    );
    console.log(
      `RESULT cvMs=${worst.toFixed(0)} coldCvMs=${coldWorst.toFixed(0)} peakMb=${peakValues.length ? Math.max(...peakValues).toFixed(0) : 'none'} parsersKb=${(parserBytes / 1024).toFixed(0)} routeKb=${(routeFileBytes / 1024).toFixed(0)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await filesBench();
