/**
 * Real subprocesses for the e2e tests: `npm start` (dev/start.ts) and one-shot `tsx`
 * scripts (admin CLI, invoke) on throwaway data directories, plus the /proc scans that show
 * what is still running on such a directory. Linux only (/proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export { alive as isAlive } from '../../dev/pids';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The environment of `npm start` / `npm run admin` in a fresh shell, pointed at `dataDir`. */
export function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...extra };
  // TABLE_NAME would send the admin CLI to a deployed table; the rest would change ports/hosts.
  for (const k of ['TABLE_NAME', 'DYNAMODB_ENDPOINT', 'DYNAMODB_PORT', 'HOST', 'PORT']) {
    if (!(k in extra)) delete env[k];
  }
  return env;
}

/**
 * The environment of an `npm start` whose test file holds no password to its cost (the shared
 * browser runtimes among them): passwords hashed at the test cost (cheap-runtime-hash.mjs says
 * why), so that the demo login's hash and each sign-in take no second of CPU at the deployed cost.
 * test/e2e/local-runtime.test.ts starts its runtimes as a developer does, and holds the demo
 * login's stored hash to the deployed cost.
 */
export const CHEAP_PASSWORDS = {
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${join(import.meta.dirname, 'cheap-runtime-hash.mjs')}`.trim(),
};

/** Live processes (other than this one) whose command line mentions `needle` (our temp dirs are unique). */
export function processesMentioning(needle: string): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      continue; // exited meanwhile
    }
    if (cmd.includes(needle)) out.push({ pid: Number(entry), cmd });
  }
  return out;
}

/** DynamoDB Local processes running on `dataDir`. */
export const javaFor = (dataDir: string) => processesMentioning(dataDir).filter((p) => p.cmd.includes('DynamoDBLocal.jar'));

/** `process.kill` that ignores a process (group) that is already gone. */
function killQuietly(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(pid, signal);
  } catch {
    /* already gone */
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Spawned {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<Exit>;
}

/**
 * `node --import tsx <script> ...args` in ROOT, in its own process group (so the whole group can be
 * signalled). One process, as `npm start` runs it: the tsx CLI would put a relay process in
 * between, which a signal to the top pid alone reaches first.
 */
function spawnTsx(script: string, args: string[], env: NodeJS.ProcessEnv, stdin: 'ignore' | 'pipe' = 'ignore'): Spawned {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: [stdin, 'pipe', 'pipe'],
  });
  return collect(child);
}

/** A child's output so far and its exit. */
function collect(child: ChildProcess): Spawned {
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<Exit>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exited };
}

export interface Running extends Spawned {
  baseUrl: string;
  demoToken: string;
  curl: { token: string; url: string };
}

/**
 * CPU seconds (utime + stime, and those of reaped children) of the processes in process group
 * `pgid`: what `npm start` and its Java have spent. Undefined without /proc.
 */
export function groupCpuSeconds(pgid: number): number | undefined {
  let ticks = 0;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // exited meanwhile
      }
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // pgrp is field 5 of stat (f[2]); utime, stime, cutime, cstime are 14 to 17 (f[11] to f[14]).
      if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    }
  } catch {
    return undefined;
  }
  return ticks / 100;
}

/**
 * Spawn `tsx dev/start.ts` (PORT=0) and wait for its banner. It goes into `started`
 * before the banner, so that cleanup also stops one that never printed it. `timeoutMs` bounds the
 * CPU the start spends (its process group's, Java's included: about 15 s to the banner), not the
 * wall clock, which on a loaded machine measured the other processes (seen: no banner in 60 s at a
 * load of 38 on two cores); the wall clock bounds only a start that gets no CPU, at five times it.
 */
function startLocal(dataDir: string, started: Running[], timeoutMs = 60_000, env: Record<string, string> = {}): Promise<Running> {
  const spawned = spawnTsx('dev/start.ts', [], childEnv(dataDir, { PORT: '0', ...env }));
  started.push(spawned as Running);
  return banner(spawned, timeoutMs);
}

/**
 * The real `npm start` (PORT=0), as a supervisor runs it: `child` is npm's process, in a group of
 * its own with the runtime it execs and its Java. Waits for the banner as `startLocal` does.
 */
function startNpm(dataDir: string, started: Running[], timeoutMs = 60_000): Promise<Running> {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: childEnv(dataDir, { PORT: '0' }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const spawned = collect(child);
  started.push(spawned as Running);
  return banner(spawned, timeoutMs);
}

async function banner(spawned: Spawned, timeoutMs: number): Promise<Running> {
  const running = spawned as Running;
  let exit: Exit | undefined;
  void spawned.exited.then((e) => (exit = e));
  const since = Date.now();
  let checked = 0;
  for (;;) {
    const out = spawned.stdout();
    const base = /^\s*API base URL\s+(\S+)\s*$/m.exec(out)?.[1];
    const token = /^\s*Demo token\s+(\S+)/m.exec(out)?.[1];
    const curl = /^\s*curl -s -H "Authorization: Bearer (\S+)" (\S+)\s*$/m.exec(out);
    if (base && token && curl) {
      Object.assign(running, { baseUrl: base, demoToken: token, curl: { token: curl[1]!, url: curl[2]! } });
      return running;
    }
    const err = spawned.stderr();
    if (exit) throw new Error(`npm start exited (${JSON.stringify(exit)}) before its banner\n${out}\n${err}`);
    const wall = Date.now() - since;
    // Once a second: a scan of /proc costs CPU of its own. Without /proc, the wall clock it is.
    if (wall - checked >= 1000) {
      checked = wall;
      const cpu = groupCpuSeconds(spawned.child.pid!);
      if ((cpu === undefined ? wall : cpu * 1000) > timeoutMs || wall > 5 * timeoutMs)
        throw new Error(`no banner within ${timeoutMs} ms of its CPU (${cpu ?? '?'} s spent)\n${out}\n${err}`);
    }
    await sleep(100);
  }
}

/**
 * Signs in as the demo admin the runtime's banner names (POST /api/session): the console API's
 * origin and the session cookie to send to it.
 */
export async function demoSession(r: Running): Promise<{ site: string; cookie: string }> {
  const site = r.baseUrl.replace(/\/api\/v1$/, '');
  const login = /Demo login\s+(\S+) \/ (\S+)/.exec(r.stdout());
  if (!login) throw new Error(`no demo login in the banner:\n${r.stdout()}`);
  const res = await fetch(`${site}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: login[1], password: login[2] }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__Host-tp_session='));
  if (res.status !== 200 || !cookie) throw new Error(`the demo sign-in answered ${res.status}: ${await res.text()}`);
  return { site, cookie: cookie.split(';')[0]! };
}

/** SIGTERM to the whole process group (what Ctrl-C in a terminal does), then wait for exit. */
export async function stopLocal(r: Running, timeoutMs = 30_000): Promise<Exit> {
  if (r.child.exitCode === null && r.child.signalCode === null) process.kill(-r.child.pid!, 'SIGTERM');
  const timer = setTimeout(() => killQuietly(-r.child.pid!, 'SIGKILL'), timeoutMs);
  const exit = await r.exited;
  clearTimeout(timer);
  return exit;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** DynamoDB Local processes on `watchJavaFor` seen while the command ran, other than `exceptPid`. */
  otherJava: number[];
}

/** Run `tsx <script> ...args` on `dataDir` to completion (own process group, killed on timeout). */
export async function run(
  script: string,
  args: string[],
  dataDir: string,
  opts: { watchJavaFor?: string; exceptPid?: number; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<RunResult> {
  const { child, stdout, stderr, exited } = spawnTsx(script, args, childEnv(dataDir, opts.env));
  const otherJava = new Set<number>();
  let done = false;
  void exited.then(() => (done = true));
  const watcher = (async () => {
    while (opts.watchJavaFor && !done) {
      for (const p of javaFor(opts.watchJavaFor)) if (p.pid !== opts.exceptPid) otherJava.add(p.pid);
      await sleep(50);
    }
  })();
  const timer = setTimeout(() => killQuietly(-child.pid!, 'SIGKILL'), opts.timeoutMs ?? 90_000);
  const { code } = await exited;
  clearTimeout(timer);
  await watcher;
  return { code, stdout: stdout(), stderr: stderr(), otherJava: [...otherJava] };
}

export interface Batch {
  /** One invocation of the batch: what a `run` of the same arguments would have given. */
  run(args: string[], opts?: { watchJavaFor?: string; exceptPid?: number }): Promise<RunResult>;
  /** Close stdin and wait for the process to finish (killed after `timeoutMs`). */
  close(timeoutMs?: number): Promise<Exit>;
}

/**
 * `tsx <script> --batch` on `dataDir`: one process answering one JSON line per JSON argument
 * array written to its stdin (scripts/invoke.ts), so that many invocations pay for starting Node
 * and loading their modules once. Invocations run one at a time, in the order given.
 */
export function startBatch(script: string, dataDir: string, opts: { env?: Record<string, string> } = {}): Batch {
  const { child, stderr, exited } = spawnTsx(script, ['--batch'], childEnv(dataDir, opts.env), 'pipe');
  let buffered = '';
  const waiting: ((line: string) => void)[] = [];
  const lines: string[] = [];
  child.stdout!.on('data', (d) => {
    buffered += d;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  let exit: Exit | undefined;
  void exited.then((e) => {
    exit = e;
    for (const w of waiting.splice(0)) w('');
  });
  let queue: Promise<unknown> = Promise.resolve();
  const one = async (args: string[], o: { watchJavaFor?: string; exceptPid?: number }): Promise<RunResult> => {
    const answer = new Promise<string>((r) => (lines.length ? r(lines.shift()!) : exit ? r('') : waiting.push(r)));
    child.stdin!.write(`${JSON.stringify(args)}\n`);
    const otherJava = new Set<number>();
    let done = false;
    const watcher = (async () => {
      while (o.watchJavaFor && !done) {
        for (const p of javaFor(o.watchJavaFor)) if (p.pid !== o.exceptPid) otherJava.add(p.pid);
        await sleep(50);
      }
    })();
    const line = await answer;
    done = true;
    await watcher;
    if (!line) throw new Error(`the batch exited (${JSON.stringify(exit)}) before answering ${JSON.stringify(args)}\n${stderr()}`);
    const { code, stdout, stderr: err } = JSON.parse(line) as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr: err, otherJava: [...otherJava] };
  };
  return {
    run(args, o = {}) {
      const result = queue.then(() => one(args, o));
      queue = result.catch(() => {});
      return result;
    },
    async close(timeoutMs = 30_000) {
      child.stdin!.end();
      const timer = setTimeout(() => killQuietly(-child.pid!, 'SIGKILL'), timeoutMs);
      const e = await exited;
      clearTimeout(timer);
      return e;
    },
  };
}

/**
 * What one test file starts: `npm start` processes (`startLocal`: the runtime itself; `startNpm`: through npm) and temp data directories (`tp-e2e-<label>-*`).
 * `cleanup()` (for afterAll) stops the processes, kills anything still mentioning one of the
 * directories (only ever ours: they are unique) and removes the directories.
 */
export function e2eSandbox() {
  const started: Running[] = [];
  const tempDirs: string[] = [];
  return {
    freshDir(label: string): string {
      const d = mkdtempSync(join(tmpdir(), `tp-e2e-${label}-`));
      tempDirs.push(d);
      return d;
    },
    startLocal: (dataDir: string, timeoutMs?: number, env?: Record<string, string>) => startLocal(dataDir, started, timeoutMs, env),
    startNpm: (dataDir: string, timeoutMs?: number) => startNpm(dataDir, started, timeoutMs),
    async cleanup(stopTimeoutMs = 10_000) {
      for (const r of started) {
        if (r.child.exitCode === null && r.child.signalCode === null) await stopLocal(r, stopTimeoutMs);
      }
      for (const d of tempDirs) {
        for (const p of processesMentioning(d)) killQuietly(p.pid, 'SIGKILL');
        rmSync(d, { recursive: true, force: true });
      }
    },
  };
}
