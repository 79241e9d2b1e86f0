/**
 * Bench section 3: what each route costs, one request at a time, through the local gateway on
 * DynamoDB Local (a table with its stream on, as `npm start` makes it; nothing reads the stream
 * here, so a figure is the request's own). Per route, after a warm-up phase: the DynamoDB calls,
 * the items written (and how many of them are audit items: the intent), the write units DynamoDB would charge
 * (scripts/bench/writes.ts), Node's CPU per request (this process: client, gateway, authorizer,
 * handler and SDK; the floor line shows what the client and the gateway alone take) and DynamoDB
 * Local's CPU per request (its Java process, from /proc), and wall p50/p99.
 *
 * `BENCH_ROUTE_REQUESTS` (default 200) measured requests per route after `BENCH_ROUTE_WARMUP`
 * (default 50), in a workspace of `BENCH_ROUTE_CANDIDATES` (default 1,000); `BENCH_ROUTES` (a
 * regular expression) keeps only the routes it matches. DynamoDB Local runs the JIT `npm start`
 * gives it (`DYNAMODB_LOCAL_JIT`).
 */
import '../../dev/quiet-sdk';
// What `npm start` runs its functions with (the X-Ray SDK in manual mode): the figures are its own.
import '../../dev/untraced';
import { jitFromEnv, startDynamoDbLocal } from '../../dev/dynamodb';
import { ensureTable, localClient } from '../../dev/table';
import { cpuMsOf, ownCpuMs } from './cpu';
import { goal } from './goals';
import { pct, summarize } from './stats';
import { emptyTally, type Tally, countWrites } from './writes';

export interface RouteFigure {
  route: string;
  calls: string;
  items: number;
  auditItems: number;
  indexEntries: number;
  units: number;
  auditUnits: number;
  nodeMs: number;
  dbMs: number | undefined;
  p50: number;
  p99: number;
}

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any }>;

interface Case {
  label: string;
  method: string;
  path: () => string;
  body?: () => unknown;
  /** Fewer requests for a route that is slow by design (a sign-in's scrypt). */
  requests?: number;
  call?: Call;
}

export async function routeFigures(log: (line: string) => void = console.log): Promise<RouteFigure[]> {
  const jit = jitFromEnv('full');
  const ddbLocal = await startDynamoDbLocal({ jit });
  try {
    await ensureTable(localClient(ddbLocal.endpoint), 'bench');
    Object.assign(process.env, { TABLE_NAME: 'bench', DYNAMODB_ENDPOINT: ddbLocal.endpoint, POWERTOOLS_LOG_LEVEL: 'ERROR' });
    const { ddbClient } = await import('../../lib/store/client');
    const counter = countWrites(ddbClient);
    const { createTenant } = await import('../../lib/store/tenants');
    const { createToken } = await import('../../lib/store/tokens');
    const { createRequisition } = await import('../../lib/store/requisitions');
    const { createUser } = await import('../../lib/store/users');
    const { hashPassword } = await import('../../lib/auth/password');
    const { createGateway } = await import('../../dev/gateway');
    const tenant = await createTenant('bench', 'Bench');
    const { token } = await createToken(tenant, 'bench', ['*']);
    const req = await createRequisition(tenant.id, { title: 'Bench', status: 'open' });
    const gateway = createGateway();
    const url = await gateway.listen(0);
    const send = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: (await res.json()) as any, cookie: res.headers.getSetCookie()[0]?.split(';')[0] };
    };
    const tokenCall: Call = (method, path, body) => send(method, path, { Authorization: `Bearer ${token}` }, body);

    const seed = Number(process.env.BENCH_ROUTE_CANDIDATES ?? 1000);
    log(`  seeding ${seed.toLocaleString('en')} candidates; DynamoDB Local on the ${jit} JIT (DYNAMODB_LOCAL_JIT)`);
    const ids: string[] = [];
    // Ten at a time: more would mostly measure their race for the workspace's counters (a lost one is tried again).
    const seedOne = async (name: string) => {
      for (let attempt = 1; ; attempt++) {
        const res = await tokenCall('POST', '/api/v1/candidates', { name, req_id: req.id });
        if (res.status === 201) return res.json.data.id as string;
        if (attempt === 5 || (res.status < 500 && res.status !== 409))
          throw new Error(`seeding: ${res.status} ${JSON.stringify(res.json)}`);
      }
    };
    for (let i = 0; i < seed; i += 10)
      ids.push(...(await Promise.all(Array.from({ length: Math.min(10, seed - i) }, (_, j) => seedOne(`C${i + j}`)))));
    const password = 'bench password 123';
    await createUser(tenant.id, 'bench@example.com', await hashPassword(password), 'admin');
    const login = await send('POST', '/api/session', {}, { email: 'bench@example.com', password });
    const sessionCall: Call = (method, path, body) => send(method, path, { Cookie: login.cookie! }, body);

    const any = () => ids[Math.floor(Math.random() * ids.length)]!;
    const stages = ['ai_screened', 'interviewed'];
    let n = 0;
    const cases: Case[] = [
      { label: 'GET /api/v1/nothing (floor: client + gateway, 404)', method: 'GET', path: () => '/api/v1/nothing' },
      { label: 'GET /api/v1/candidates', method: 'GET', path: () => '/api/v1/candidates' },
      { label: 'GET /api/v1/candidates?stage', method: 'GET', path: () => '/api/v1/candidates?stage=applied&limit=200' },
      { label: 'GET /api/v1/candidates?req_id', method: 'GET', path: () => `/api/v1/candidates?req_id=${req.id}&offset=500&limit=50` },
      { label: 'GET /api/v1/candidates?q', method: 'GET', path: () => '/api/v1/candidates?q=c12' },
      { label: 'GET /api/v1/candidates/{id}', method: 'GET', path: () => `/api/v1/candidates/${any()}` },
      { label: 'GET /api/v1/requisitions', method: 'GET', path: () => '/api/v1/requisitions' },
      { label: 'GET /api/v1/pipeline', method: 'GET', path: () => '/api/v1/pipeline' },
      {
        label: 'POST /api/v1/candidates',
        method: 'POST',
        path: () => '/api/v1/candidates',
        body: () => ({ name: 'Bench', req_id: req.id }),
      },
      {
        label: 'POST /api/v1/pipeline (move)',
        method: 'POST',
        path: () => '/api/v1/pipeline',
        body: () => ({ candidate_id: any(), stage: stages[n++ % 2] }),
      },
      {
        label: 'PATCH /api/v1/candidates/{id}',
        method: 'PATCH',
        path: () => `/api/v1/candidates/${any()}`,
        body: () => ({ name: `Renamed ${n++}` }),
      },
      { label: 'POST /api/v1/requisitions', method: 'POST', path: () => '/api/v1/requisitions', body: () => ({ title: `R${n++}` }) },
      { label: 'GET /api/session', method: 'GET', path: () => '/api/session', call: sessionCall },
      { label: 'GET /api/overview', method: 'GET', path: () => '/api/overview', call: sessionCall },
      { label: 'GET /api/audit', method: 'GET', path: () => '/api/audit', call: sessionCall },
      { label: 'GET /api/settings/pipeline', method: 'GET', path: () => '/api/settings/pipeline', call: sessionCall },
      {
        label: 'POST /api/session (sign-in, scrypt)',
        method: 'POST',
        path: () => '/api/session',
        body: () => ({ email: 'bench@example.com', password }),
        call: (m, p, b) => send(m, p, {}, b),
        requests: 10,
      },
    ];
    const warmup = Number(process.env.BENCH_ROUTE_WARMUP ?? 50);
    const measured = Number(process.env.BENCH_ROUTE_REQUESTS ?? 200);
    const figures: RouteFigure[] = [];
    log(
      `  ${warmup} requests of warm-up, then ${measured} measured, one at a time; per request (means; the calls of the request that made most):`,
    );
    log(
      '  items written (audit items among them), index entries, write units (scripts/bench/writes.ts), CPU of Node and of DynamoDB Local',
    );
    log(
      `  ${'route'.padEnd(52)} ${'DynamoDB calls'.padEnd(38)} ${'items'.padStart(5)} ${'audit'.padStart(5)} ${'index'.padStart(5)} ${'WU'.padStart(5)} ${'audit WU'.padStart(8)} ${'Node CPU'.padStart(9)} ${'DDB CPU'.padStart(9)} ${'p50'.padStart(8)} ${'p99'.padStart(8)}`,
    );
    const only = process.env.BENCH_ROUTES ? new RegExp(process.env.BENCH_ROUTES) : undefined;
    for (const c of cases.filter((x) => !only || only.test(x.label))) {
      const call = c.call ?? tokenCall;
      const count = c.requests ?? measured;
      let failed: string | undefined;
      const one = async () => {
        const res = await call(c.method, c.path(), c.body?.());
        if (res.status >= 300 && !c.label.includes('floor')) failed ??= `${res.status} ${res.json?.code ?? ''}`.trim();
      };
      for (let i = 0; i < Math.min(warmup, count); i++) await one();
      const tallies: Tally[] = [];
      const times: number[] = [];
      const node0 = ownCpuMs();
      const db0 = cpuMsOf(ddbLocal.pid);
      for (let i = 0; i < count; i++) {
        const tally = emptyTally();
        counter.use(tally);
        tallies.push(tally);
        const t = performance.now();
        await one();
        times.push(performance.now() - t);
      }
      counter.use(undefined);
      const node1 = ownCpuMs();
      const db1 = cpuMsOf(ddbLocal.pid);
      const mean = (f: (t: Tally) => number) => tallies.reduce((s, t) => s + f(t), 0) / count;
      // The calls of the request that made the most (a first write of a workspace may read more).
      const calls = summarize(tallies.reduce((a, t) => (t.calls.length > a.length ? t.calls : a), [] as string[])) || 'none';
      if (failed) {
        // A route that answered an error is no figure (a loaded machine can time a sign-in out).
        log(`  ${c.label.padEnd(52)} not measured (answered ${failed})`);
        continue;
      }
      const f: RouteFigure = {
        route: c.label,
        calls,
        items: mean((t) => t.items),
        auditItems: mean((t) => t.auditItems),
        indexEntries: mean((t) => t.indexEntries),
        units: mean((t) => t.units),
        auditUnits: mean((t) => t.auditUnits),
        nodeMs: (node1 - node0) / count,
        dbMs: db0 === undefined || db1 === undefined ? undefined : (db1 - db0) / count,
        p50: pct(times, 50),
        p99: pct(times, 99),
      };
      figures.push(f);
      const num = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
      log(
        `  ${c.label.padEnd(52)} ${calls.padEnd(38)} ${num(f.items).padStart(5)} ${num(f.auditItems).padStart(5)} ${num(f.indexEntries).padStart(5)} ${num(f.units).padStart(5)} ${num(f.auditUnits).padStart(8)} ${`${f.nodeMs.toFixed(2)} ms`.padStart(9)} ${(f.dbMs === undefined ? 'n/a' : `${f.dbMs.toFixed(2)} ms`).padStart(9)} ${`${f.p50.toFixed(1)} ms`.padStart(8)} ${`${f.p99.toFixed(1)} ms`.padStart(8)}`,
      );
    }
    await gateway.close();
    return figures;
  } finally {
    await ddbLocal.stop();
  }
}

/** The goals section 3 tracks: GET /api/v1/pipeline's calls, and its p50 beside GET /api/v1/requisitions'. */
export function routeGoals(figures: RouteFigure[]) {
  const pipe = figures.find((f) => f.route === 'GET /api/v1/pipeline');
  const reqs = figures.find((f) => f.route === 'GET /api/v1/requisitions');
  if (!pipe || !reqs) return;
  const n = pipe.calls.split(' + ').reduce((sum, part) => sum + Number(part.split('×')[0]), 0);
  goal(
    'GET /api/v1/pipeline calls (1,000 candidates; pinned at 100 and 2,000 by calls/candidates.test.ts)',
    pipe.calls,
    'at most 2 calls',
    n <= 2,
  );
  goal(
    'Local p50 of GET /api/v1/pipeline',
    `${pipe.p50.toFixed(1)} ms (${(pipe.p50 / reqs.p50).toFixed(2)}× requisitions' ${reqs.p50.toFixed(1)} ms)`,
    'within 1.5× of GET /api/v1/requisitions',
    pipe.p50 <= 1.5 * reqs.p50,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await routeFigures();
  process.exit(0);
}
