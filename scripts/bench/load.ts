/**
 * The bench's load run: `npm start` in a child process, autocannon with a mix of reads and
 * writes through the demo token, then an exact check of the counters against the records.
 */
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';

const STAGES = ['applied', 'ai_screened', 'interview_scheduled', 'interviewed', 'offer_sent', 'offer_accepted', 'onboarding', 'placed'];

export async function loadRun(opts: { root: string; dataDir: string; seconds: number; connections: number }) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'dev/start.ts'], {
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
    const ids: string[] = (await get('/api/v1/candidates?limit=200')).data.map((c: { id: string }) => c.id);
    const reqId: string | undefined = (await get('/api/v1/requisitions')).data[0]?.id;
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    // Per connection, in turn: 3 reads, a create, a move (60% reads, 40% writes).
    const requests = [
      { method: 'GET' as const, path: '/api/v1/pipeline' },
      { method: 'GET' as const, path: '/api/v1/candidates?limit=20' },
      { method: 'GET' as const, path: '/api/v1/requisitions' },
      {
        method: 'POST' as const,
        path: '/api/v1/candidates',
        setupRequest: (r: any) => ({ ...r, body: JSON.stringify({ name: 'Load', ...(reqId && { req_id: reqId }) }) }),
      },
      {
        method: 'POST' as const,
        path: '/api/v1/pipeline',
        setupRequest: (r: any) => ({ ...r, body: JSON.stringify({ candidate_id: pick(ids), stage: pick(STAGES) }) }),
      },
    ];
    const before = (await get('/api/v1/pipeline')).data;
    const result = await autocannon({ url: base, connections: opts.connections, duration: opts.seconds, headers, requests });
    const errors = result.errors + result.timeouts + result.non2xx;
    const summary = `${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${errors} errors`;
    const lines = [
      `${result.requests.total} requests in ${opts.seconds} s: ${summary}`,
      `(errors = ${result.errors} connection errors + ${result.timeouts} timeouts + ${result.non2xx} non-2xx)`,
    ];

    // autocannon stops at the deadline with up to `connections` requests still being served:
    // let them finish before comparing, or a write in flight shows up in one read and not the other.
    await new Promise((r) => setTimeout(r, 5_000));
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
      ok: errors === 0,
      counters: mismatches.length ? `NOT exact (${mismatches.length} mismatches)` : `exact over ${all} candidates`,
      countersExact: mismatches.length === 0,
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}
