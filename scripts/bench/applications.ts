/**
 * A burst of applications through the public route against `npm start`, then the careers pages'
 * weight and Lighthouse scores. `npm run bench` runs it as section 16; alone:
 * `tsx scripts/bench/applications.ts`. Prints figures, asserts nothing.
 *
 * The burst: a job of its own is published through the posting API, one form token per applicant
 * is read from the public job read (as each applicant's browser would), the form token's minimum
 * time is waited out, then BENCH_APPLICATIONS posts (1,000 by default, distinct emails) are sent
 * open-loop, evenly spread over BENCH_APPLICATIONS_SECONDS (10). Each post's synchronous time is
 * kept; then the requisition's count, the pipeline's counts and the requisition's candidate list
 * are read until all of them show every application. Time to the last candidate is taken from the
 * candidates' own `created_at`, not from the polling. RATE_LIMITS=off, as the other load
 * sections: the application limits would otherwise keep 10 posts an hour from one address.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { FORM_MIN_MS } from '../../lib/domain/form-token';
import { MAX_HEADCOUNT } from '../../lib/model';
import { cpuMsOf } from './cpu';
import { pct } from './stats';

const root = join(import.meta.dirname, '..', '..');
const SLUG = 'demo';
/**
 * Lighthouse runs the full browser (Debian's `chromium`), not the headless shell the browser tests
 * drive: it audits in the full browser's headless mode, as Chrome runs it for everyone.
 */
const LIGHTHOUSE_CHROMIUM = process.env.LIGHTHOUSE_CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface ApplicationFigures {
  n: number;
  /** From the first post to the last candidate's `created_at`, ms; undefined when not all came. */
  toLastMs: number | undefined;
  p50: number;
  p99: number;
  /** How many posts answered something other than 202. */
  failed: number;
  exact: boolean;
  countersLine: string;
  /** CPU per application, the post and the worker's run: npm start, its DynamoDB Local. */
  nodeMs: number | undefined;
  dbMs: number | undefined;
}

export interface CareersFigures {
  lines: string[];
  /** Per page measured: its HTML bytes and the JavaScript it carries (inline bytes, external scripts). */
  pages: { label: string; bytes: number; js: number; external: number }[];
  /** Lighthouse's three scores (0-100) of the job page, or why they are not measured. */
  scores: { performance: number; accessibility: number; seo: number; missed: string[] } | { reason: string };
}

/** `npm start` on a fresh data directory, rate limits off. */
async function startLocal(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'dev/start.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', RATE_LIMITS: 'off', POWERTOOLS_LOG_LEVEL: 'ERROR' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('Talent Pipeline is running') && /Demo token\s+\S+/.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before it was ready`)));
  });
  const api = /API base URL\s+(\S+)/.exec(out)![1]!;
  const { javaPid } = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8')) as { javaPid: number };
  return {
    api,
    origin: new URL(api).origin,
    token: /Demo token\s+(\S+)/.exec(out)![1]!,
    pid: child.pid!,
    javaPid,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

type Local = Awaited<ReturnType<typeof startLocal>>;

/** `concurrency` workers over `n` jobs, in order of index. */
async function pool(n: number, concurrency: number, job: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, concurrency) }, async () => {
      for (let i = next++; i < n; i = next++) await job(i);
    }),
  );
}

/** The demo token's calls to /api/v1. */
const caller = (local: Local) => async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${local.api}${path}`, {
    method,
    headers: { Authorization: `Bearer ${local.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: any; next_cursor?: string | null };
};

/** A job of the bench's own, published with an ad of a usual length, no questions and no CV. */
async function publishJob(local: Local): Promise<string> {
  const call = caller(local);
  const req: string = (await call('POST', '/requisitions', { title: 'Platform Engineer', location: 'Berlin', headcount: MAX_HEADCOUNT }))
    .data.id;
  const description = [
    '## About the role',
    'You run the platform our product teams ship on: **build pipelines**, deploys and the services every team shares.',
    '## What you will do',
    '- Keep deploys fast and boring\n- Own the on-call tooling\n- Help teams measure what they ship',
    '## What you bring',
    '- Three years of TypeScript or Go\n- Experience with a public cloud\n- Clear writing',
  ].join('\n\n');
  await call('PUT', `/requisitions/${req}/posting`, {
    published: true,
    description,
    remote: 'hybrid',
    remote_countries: ['DE', 'NL'],
    salary: { min: 70_000, max: 90_000, currency: 'EUR', period: 'year' },
    cv: 'off',
  });
  return req;
}

/** One form token per applicant, as each applicant's read of the job hands out, aged past the minimum. */
async function readTokens(local: Local, req: string, n: number) {
  const tokens: string[] = new Array(n);
  await pool(n, 8, async (i) => {
    const res = await fetch(`${local.origin}/api/boards/${SLUG}/jobs/${req}`);
    if (!res.ok) throw new Error(`GET the public job: ${res.status}`);
    tokens[i] = ((await res.json()) as { data: { form_token: string } }).data.form_token;
  });
  // The last token read must be older than the minimum, or its post is refused (silently) as too fast.
  await sleep(FORM_MIN_MS + 500);
  return tokens;
}

/** Open loop: post i leaves at its own time whatever the answers before it, as applicants do. */
async function postAll(local: Local, req: string, tokens: string[], seconds: number, label: string) {
  const n = tokens.length;
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const t0 = performance.now();
  await Promise.all(
    tokens.map(async (form_token, i) => {
      const wait = (i * seconds * 1000) / n - (performance.now() - t0);
      if (wait > 0) await sleep(wait);
      const sent = performance.now();
      const res = await fetch(`${local.origin}/api/boards/${SLUG}/jobs/${req}/applications`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name: `Burst Applicant ${i}`,
          email: `${label}-${i}@example.com`,
          consent: { accepted: true, text: 'I have read the privacy notice.', version: 'bench' },
          form_token,
        }),
      }).catch(() => undefined);
      await res?.arrayBuffer();
      latencies.push(performance.now() - sent);
      const status = res?.status ?? 0;
      statuses[status] = (statuses[status] ?? 0) + 1;
    }),
  );
  const answers = Object.entries(statuses)
    .map(([s, c]) => `${s === '0' ? 'no answer' : s} × ${c}`)
    .join(', ');
  return { latencies, answers, accepted: statuses[202] ?? 0, sentIn: (performance.now() - t0) / 1000 };
}

/** The requisition's candidate_count once it reaches `n`, or what it was at the deadline. */
async function countReaches(local: Local, req: string, n: number) {
  const call = caller(local);
  // Generous: the worker's whole backlog drains well within it on a quiet machine.
  const deadline = Date.now() + 120_000 + n * 200;
  for (;;) {
    const count = Number((await call('GET', `/requisitions/${req}`)).data.candidate_count);
    if (count >= n || Date.now() > deadline) return count;
    await sleep(250);
  }
}

async function burst(local: Local, req: string, n: number, seconds: number, log: (line: string) => void): Promise<ApplicationFigures> {
  const call = caller(local);
  const runId = Date.now().toString(36);
  // The warm-up, on a job of its own: the functions' first loads and the JIT are not the burst's.
  const warmJob = await publishJob(local);
  const warmN = Math.min(20, n);
  const warm = await postAll(local, warmJob, await readTokens(local, warmJob, warmN), 2, `warm-${runId}`);
  const warmCount = await countReaches(local, warmJob, warmN);
  log(`  warm-up: ${warmN} applications to another job (${warm.answers}), ${warmCount} candidates made`);

  const read = performance.now();
  const tokens = await readTokens(local, req, n);
  log(
    `  ${n} form tokens read from the public job read in ${((performance.now() - read) / 1000).toFixed(1)} s (then ${FORM_MIN_MS / 1000} s waited)`,
  );
  const stageTotal = async () =>
    Object.values((await call('GET', '/pipeline')).data.stage_counts as Record<string, number>).reduce((a, b) => a + b, 0);
  const totalBefore = await stageTotal();
  const cpu0 = { node: cpuMsOf(local.pid), db: cpuMsOf(local.javaPid) };
  const started = Date.now();
  const { latencies, answers, accepted, sentIn } = await postAll(local, req, tokens, seconds, `burst-${runId}`);
  const failed = n - accepted;
  log(
    `  ${n} posts in ${sentIn.toFixed(1)} s: ${answers}; synchronous p50 ${pct(latencies, 50).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms`,
  );

  const listed = async () => {
    const created: number[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await call('GET', `/candidates?req_id=${req}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      for (const c of page.data as { created_at: string }[]) created.push(Date.parse(c.created_at));
      cursor = page.next_cursor;
    } while (cursor);
    return created;
  };
  const count = await countReaches(local, req, n);
  const cpu1 = { node: cpuMsOf(local.pid), db: cpuMsOf(local.javaPid) };
  const created = await listed();
  const total = (await stageTotal()) - totalBefore;
  const exact = count === n && created.length === n && total === n;
  const countersLine = `requisition candidate_count ${count}, pipeline counts +${total}, candidate list ${created.length} (of ${n} posted)`;
  const toLastMs = created.length === n ? Math.max(...created) - started : undefined;
  const per = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : (b - a) / n);
  log(`  counters ${exact ? 'exact' : 'NOT exact'}: ${countersLine}`);
  const ms = (x: number | undefined) => (x === undefined ? 'not measured (no /proc)' : `${x.toFixed(1)} ms`);
  log(
    `  first post to the last candidate: ${toLastMs === undefined ? `not measured (${created.length} of ${n} candidates)` : `${(toLastMs / 1000).toFixed(1)} s`}; CPU per application (post and worker): npm start ${ms(per(cpu0.node, cpu1.node))}, its DynamoDB Local ${ms(per(cpu0.db, cpu1.db))}`,
  );
  return {
    n,
    toLastMs,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    failed,
    exact,
    countersLine,
    nodeMs: per(cpu0.node, cpu1.node),
    dbMs: per(cpu0.db, cpu1.db),
  };
}

/** Bytes of the markup, and of script in it: JavaScript apart from the JSON-LD data block. */
function weigh(html: string) {
  const bytes = Buffer.byteLength(html);
  let js = 0;
  let ld = 0;
  const external: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [attrs, body] = [m[1] ?? '', m[2] ?? ''];
    if (/type\s*=\s*["']?application\/ld\+json/i.test(attrs)) ld += Buffer.byteLength(body);
    else js += Buffer.byteLength(body);
    const src = /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1];
    if (src) external.push(src);
  }
  return { bytes, gzip: gzipSync(html).length, js, ld, external };
}

async function lighthouseScores(url: string): Promise<CareersFigures['scores']> {
  let lighthouse: typeof import('lighthouse').default;
  let launcher: typeof import('chrome-launcher');
  try {
    lighthouse = (await import('lighthouse')).default;
    launcher = await import('chrome-launcher');
  } catch (err) {
    return { reason: `the lighthouse package does not load: ${(err as Error).message.split('\n')[0]}` };
  }
  const chrome = await launcher
    .launch({
      chromePath: LIGHTHOUSE_CHROMIUM,
      // The same closed-network flags as the browser tests: Chromium calls nobody's hosts.
      chromeFlags: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    .catch((err: Error) => err);
  if (chrome instanceof Error) return { reason: `Chromium did not start: ${chrome.message.split('\n')[0]}` };
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'seo'],
    });
    const c = result?.lhr.categories;
    const score = (k: string) => Math.round((c?.[k]?.score ?? Number.NaN) * 100);
    const scores = { performance: score('performance'), accessibility: score('accessibility'), seo: score('seo') };
    if (Object.values(scores).some(Number.isNaN))
      return { reason: `Lighthouse gave no score: ${result?.lhr.runtimeError?.message ?? 'none'}` };
    // What cost points: each weighted audit below full marks, with its score, so a low figure says why.
    const missed = Object.values(c ?? {}).flatMap((cat) =>
      cat.auditRefs
        .filter((ref) => ref.weight > 0)
        .map((ref) => result!.lhr.audits[ref.id]!)
        .filter((a) => a.score !== null && a.score < 1)
        .map((a) => `${a.id} ${Math.round(a.score! * 100)}${a.displayValue ? ` (${a.displayValue})` : ''}`),
    );
    return { ...scores, missed };
  } catch (err) {
    return { reason: `Lighthouse failed: ${(err as Error).message.split('\n')[0]}` };
  } finally {
    chrome.kill();
  }
}

async function careers(local: Local, job: string): Promise<CareersFigures> {
  const lines: string[] = [];
  const pages: CareersFigures['pages'] = [];
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  for (const [label, path] of [
    ['the list', `/careers/${SLUG}`],
    ['a job page', `/careers/${SLUG}/jobs/${job}`],
  ] as const) {
    const res = await fetch(`${local.origin}${path}`);
    if (!res.ok) {
      lines.push(`${label.padEnd(11)} not measured: ${path} answered ${res.status}`);
      continue;
    }
    const w = weigh(await res.text());
    pages.push({ label, bytes: w.bytes, js: w.js, external: w.external.length });
    lines.push(
      `${label.padEnd(11)} HTML ${kb(w.bytes)} (${kb(w.gzip)} gzipped); JavaScript ${w.js} bytes inline, ${w.external.length} external scripts${w.external.length ? ` (${w.external.join(', ')})` : ''}; JSON-LD data ${kb(w.ld)}`,
    );
  }
  const started = performance.now();
  const scores = await lighthouseScores(`${local.origin}/careers/${SLUG}/jobs/${job}`);
  lines.push(
    'reason' in scores
      ? `Lighthouse, the job page: not measured: ${scores.reason}`
      : `Lighthouse, the job page: performance ${scores.performance}, accessibility ${scores.accessibility}, SEO ${scores.seo} (run in ${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  if (!('reason' in scores) && scores.missed.length) lines.push(`  below full marks: ${scores.missed.join('; ')}`);
  return { lines, pages, scores };
}

export async function applicationsBench(opts: { n: number; seconds: number; log?: (line: string) => void }) {
  const log = opts.log ?? console.log;
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-applications-'));
  const local = await startLocal(dataDir);
  try {
    const job = await publishJob(local);
    const applications = await burst(local, job, opts.n, opts.seconds, log).catch((err: Error) => err);
    if (applications instanceof Error) log(`  burst not measured: ${applications.message}`);
    const page = await careers(local, job).catch((err: Error) => ({
      lines: [`not measured: ${err.message}`],
      pages: [],
      scores: { reason: err.message },
    }));
    for (const line of page.lines) log(`  ${line}`);
    return { applications, careers: page };
  } finally {
    await local.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.env.BENCH_APPLICATIONS ?? 1000);
  const seconds = Number(process.env.BENCH_APPLICATIONS_SECONDS ?? 10);
  console.log(`Applications: a burst of ${n} over ${seconds} s against npm start, then the careers pages`);
  await applicationsBench({ n, seconds });
}
