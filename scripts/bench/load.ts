/**
 * The bench's load run: `npm start` in a child process, autocannon with a mix of reads and
 * writes through the demo token (a warm-up phase, then the measured one), the CPU per request of
 * npm start's own process and of its DynamoDB Local over the measured phase, then an exact check
 * of the counters against the records.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { cpuMsOf } from './cpu';
import { MAX_HEADCOUNT } from '../../lib/model';

const STAGES = ['applied', 'ai_screened', 'interview_scheduled', 'interviewed', 'offer_sent', 'offer_accepted', 'onboarding', 'placed'];

/** `200 × 1234, 409 × 5`: autocannon's count of answers by status. */
const statuses = (r: autocannon.Result) =>
  Object.entries(r.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code} × ${count ?? 0}`)
    .join(', ') || 'none';

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  /** CPU per request over the measured phase: npm start's process, and its DynamoDB Local's. */
  nodeMs: number | undefined;
  dbMs: number | undefined;
}

export async function loadRun(opts: { root: string; dataDir: string; seconds: number; warmupSeconds: number; connections: number }) {
  // BENCH_LOAD_CPU_PROF=<dir>: npm start writes a V8 CPU profile of the whole run there when it stops.
  const prof = process.env.BENCH_LOAD_CPU_PROF;
  const child = spawn(process.execPath, [...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []), '--import', 'tsx', 'dev/start.ts'], {
    cwd: opts.root,
    // RATE_LIMITS=off: one demo token at 16 connections would measure the per-token limit
    // (10 requests/s, docs/api.md, "Rate limits"), not the service.
    env: { ...process.env, DATA_DIR: opts.dataDir, PORT: '0', POWERTOOLS_LOG_LEVEL: 'ERROR', RATE_LIMITS: 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const { base, token } = await new Promise<{ base: string; token: string }>((resolve, reject) => {
      let buf = '';
      child.stdout!.on('data', (d) => {
        buf += d;
        const url = /API base URL\s+(\S+)/.exec(buf);
        const tok = /Demo token\s+(\S+)/.exec(buf);
        if (url && tok) resolve({ base: url[1]!.replace(/\/api\/v1$/, ''), token: tok[1]! });
      });
      child.once('exit', (code) => reject(new Error(`npm start exited early (${code}): ${buf}`)));
    });
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`, { headers });
      if (!res.ok) throw new Error(`GET ${path} -> ${res.status}`);
      return (await res.json()) as { data: any };
    };
    // The creates go to a requisition of their own: the demo's have headcounts that the moves'
    // hires fill within seconds, after which every create there would be a cheap 409.
    const made = await fetch(`${base}/api/v1/requisitions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Load', headcount: MAX_HEADCOUNT }),
    });
    if (!made.ok) throw new Error(`POST /api/v1/requisitions -> ${made.status}`);
    const reqId: string = ((await made.json()) as { data: { id: string } }).data.id;
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    // Per connection, in turn: 3 reads, a create, a move (60% reads, 40% writes). Each connection
    // moves the candidate it has just created: moves of one candidate from several connections at
    // once are a race the service answers with 409 after its retries (the contention tests hold
    // that), which would count here as errors of the service.
    const requests: autocannon.Request[] = [
      { method: 'GET' as const, path: '/api/v1/pipeline' },
      { method: 'GET' as const, path: '/api/v1/candidates?limit=20' },
      { method: 'GET' as const, path: '/api/v1/requisitions' },
      {
        method: 'POST' as const,
        path: '/api/v1/candidates',
        setupRequest: (r: any) => ({ ...r, body: JSON.stringify({ name: 'Load', req_id: reqId }) }),
        onResponse: (status: number, body: string, context: { created?: string }) => {
          if (status === 201) context.created = (JSON.parse(body) as { data: { id: string } }).data.id;
        },
      },
      {
        method: 'POST' as const,
        path: '/api/v1/pipeline',
        // A create that failed leaves nothing to move: that connection starts its next round.
        setupRequest: (r: any, context: { created?: string }) =>
          context.created ? { ...r, body: JSON.stringify({ candidate_id: context.created, stage: pick(STAGES) }) } : undefined,
      },
    ];
    const before = (await get('/api/v1/pipeline')).data;
    const run = (duration: number) => autocannon({ url: base, connections: opts.connections, duration, headers, requests });
    // The warm-up: the JITs of both processes compile the hot paths here, not in the measured phase.
    const warm = opts.warmupSeconds > 0 ? await run(opts.warmupSeconds) : undefined;
    await new Promise((r) => setTimeout(r, 2_000)); // its last requests and their stream records settle
    const { javaPid } = JSON.parse(readFileSync(join(opts.dataDir, 'runtime.json'), 'utf8')) as { javaPid: number };
    const cpu0 = { node: cpuMsOf(child.pid!), db: cpuMsOf(javaPid) };
    const result = await run(opts.seconds);
    const cpu1 = { node: cpuMsOf(child.pid!), db: cpuMsOf(javaPid) };
    const n = result.requests.total;
    const per = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !n ? undefined : (b - a) / n);
    const figures: LoadFigures = {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      nodeMs: per(cpu0.node, cpu1.node),
      dbMs: per(cpu0.db, cpu1.db),
    };
    const errors = result.errors + result.timeouts + result.non2xx + (warm ? warm.errors + warm.timeouts + warm.non2xx : 0);
    const summary = `${figures.rps.toFixed(0)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${errors} errors`;
    const ms = (x: number | undefined) => (x === undefined ? 'not measured (no /proc)' : `${x.toFixed(2)} ms`);
    const lines = [
      ...(warm ? [`warm-up: ${warm.requests.total} requests in ${opts.warmupSeconds} s (${warm.requests.average.toFixed(0)} req/s)`] : []),
      `measured: ${n} requests in ${opts.seconds} s: ${summary}`,
      `(errors, warm-up included = ${result.errors + (warm?.errors ?? 0)} connection errors + ${result.timeouts + (warm?.timeouts ?? 0)} timeouts + ${result.non2xx + (warm?.non2xx ?? 0)} non-2xx; answers by status, measured phase: ${statuses(result)})`,
      `CPU per request: npm start ${ms(figures.nodeMs)} (gateway, functions, stream and queue pollers), its DynamoDB Local ${ms(figures.dbMs)}`,
    ];

    // autocannon stops at the deadline with up to `connections` requests still being served, and
    // one it gave up on runs on in npm start until its function's timeout (10 s): let them finish
    // before comparing, or a write in flight shows up in one read and not the other.
    await new Promise((r) => setTimeout(r, 12_000));
    // Counters against the records: every listable stage paged through, and the total.
    const after = (await get('/api/v1/pipeline')).data;
    const countList = async (query: string) => {
      let n = 0;
      for (let offset = 0; ; offset += 200) {
        const page = (await get(`/api/v1/candidates?limit=200&offset=${offset}${query}`)).data;
        n += page.length;
        if (page.length < 200) return n;
      }
    };
    const mismatches: string[] = [];
    for (const stage of STAGES) {
      const listed = await countList(`&stage=${stage}`);
      if (listed !== after.stage_counts[stage]) mismatches.push(`${stage}: counter ${after.stage_counts[stage]}, records ${listed}`);
    }
    const all = await countList('');
    const counted = Object.values(after.stage_counts as Record<string, number>).reduce((a, b) => a + b, 0);
    if (all !== counted) mismatches.push(`total: counters ${counted}, records ${all}`);
    const created = all - Object.values(before.stage_counts as Record<string, number>).reduce((a, b) => a + b, 0);
    lines.push(
      mismatches.length
        ? `counters NOT exact: ${mismatches.join('; ')}`
        : `counters exact: ${all} candidates (${created} created during the run), every stage's counter equals its records`,
    );
    return {
      lines,
      summary,
      figures,
      errors,
      ok: errors === 0,
      counters: mismatches.length ? `NOT exact (${mismatches.length} mismatches)` : `exact over ${all} candidates`,
      countersExact: mismatches.length === 0,
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}
