/**
 * A 10 MB PDF through `npm start` (its gateway, local S3 and file worker), from the first request
 * to `ready`: the upload asked for, the bytes POSTed to the presigned URL as a browser would, the
 * attach, then the file read until the worker has checked it and read its text. Printed, never
 * asserted (`tsx scripts/bench/file-upload.ts`; `npm run bench` section 13 runs it).
 * The last line is `RESULT …` for the bench's closing table.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { bigPdf } from './files';

const ROOT = join(import.meta.dirname, '..', '..');
const SIZE = 10 * 1024 * 1024;

async function startRuntime(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'dev/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', RATE_LIMITS: 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const banner = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += d;
      if (/Ctrl-C stops/.test(buf)) resolve(buf);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before it was ready`)));
  });
  child.stdout!.resume();
  const base = /API base URL\s+(\S+)/.exec(banner)?.[1];
  const token = /Demo token\s+(\S+)/.exec(banner)?.[1];
  if (!base || !token) throw new Error('no API base URL or demo token in the banner');
  return { child, base, token };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-file-upload-bench-'));
  const file = bigPdf(SIZE);
  const { child, base, token } = await startRuntime(dataDir);
  const exited = new Promise((r) => child.once('exit', r));
  const call = async (method: string, path: string, body?: unknown, tolerate5xx = false) => {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    } catch (err) {
      // A kept-alive connection the stalled server closed meanwhile: read again on a new one.
      if (tolerate5xx) return undefined;
      throw err;
    }
    const json = (await res.json()) as { data: Record<string, unknown> };
    if (tolerate5xx && res.status >= 500) return undefined;
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json.data;
  };
  const api = async (method: string, path: string, body?: unknown) => (await call(method, path, body))!;
  // Locally the file worker runs in npm start's own process: while it reads a large PDF, a read
  // of the file can run out of its function's time. Counted and printed, then read again.
  let stalled = 0;
  try {
    const candidate = await api('POST', '/candidates', { name: 'Bench Person' });
    const personId = String(candidate.person_id);
    // One warm-up of the whole path, so the figure is not the first load of each function.
    const run = async () => {
      const marks: Record<string, number> = {};
      const t0 = performance.now();
      const upload = await api('POST', '/uploads', { filename: 'cv.pdf', content_type: 'application/pdf', size: file.length });
      marks.upload = performance.now() - t0;
      const form = new FormData();
      for (const [k, v] of Object.entries(upload.fields as Record<string, string>)) form.append(k, v);
      form.append('file', new Blob([file], { type: 'application/pdf' }), 'cv.pdf');
      const posted = await fetch(String(upload.url), { method: 'POST', body: form });
      if (!posted.ok) throw new Error(`the bucket answered ${posted.status}`);
      await posted.arrayBuffer();
      marks.bytes = performance.now() - t0;
      const attached = await api('POST', `/people/${personId}/files`, { upload_id: upload.upload_id, kind: 'resume' });
      marks.attach = performance.now() - t0;
      let status = String(attached.status);
      while (status === 'processing') {
        if (performance.now() - t0 > 120_000) throw new Error('not ready within 120 s');
        await sleep(25);
        const read = await call('GET', `/people/${personId}/files/${attached.id}`, undefined, true);
        if (read) status = String(read.status);
        else stalled++;
      }
      marks.ready = performance.now() - t0;
      if (status !== 'ready') throw new Error(`the file ended ${status}`);
      // Deleted so that the next run's same bytes are a new file, not the one already attached.
      await api('DELETE', `/people/${personId}/files/${attached.id}`);
      return marks;
    };
    await run();
    const m = await run();
    console.log(`Files: a ${(file.length / 1048576).toFixed(1)} MB PDF through npm start, from the first request to ready (second run)`);
    console.log(`  upload asked for   ${m.upload!.toFixed(0).padStart(6)} ms`);
    console.log(`  bytes in the bucket ${m.bytes!.toFixed(0).padStart(5)} ms`);
    console.log(`  attached           ${m.attach!.toFixed(0).padStart(6)} ms`);
    console.log(`  ready (checked, text read) ${m.ready!.toFixed(0).padStart(6)} ms`);
    if (stalled) console.log(`  ${stalled} reads of the file timed out while the in-process worker held the event loop`);
    console.log(`RESULT uploadToReadyMs=${m.ready!.toFixed(0)} bytes=${file.length}`);
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
