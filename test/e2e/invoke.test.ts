/**
 * `npm run invoke -- <function> <event.json>` with every sample event in events/, against a
 * data directory that `npm start` has seeded, and the sample events' coverage of functions/
 * and of the route table.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../infra/local/demo-data';
import { routes, type Route } from '../../lib/routes';

const ROOT = resolve(import.meta.dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const functionNames = readdirSync(join(ROOT, 'functions'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => basename(f, '.ts'))
  .sort();
const eventNames = readdirSync(join(ROOT, 'events'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => basename(f, '.json'))
  .sort();
const invokable = functionNames.filter((f) => eventNames.includes(f));
const readEvent = (name: string) => JSON.parse(readFileSync(join(ROOT, 'events', `${name}.json`), 'utf8'));
const routeFor = (handler: string) => (routes as readonly Route[]).find((r) => r.handler === handler);

function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...extra };
  for (const k of ['TABLE_NAME', 'DYNAMODB_ENDPOINT', 'DYNAMODB_PORT', 'HOST', 'PORT']) {
    if (!(k in extra)) delete env[k];
  }
  return env;
}

/** DynamoDB Local processes running on `dataDir` (our temp dirs are unique). */
function javaFor(dataDir: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes(dataDir) && cmd.includes('DynamoDBLocal.jar')) out.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}
const processesMentioning = (needle: string) =>
  readdirSync('/proc').filter((e) => {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) return false;
    try {
      return readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(needle);
    } catch {
      return false;
    }
  }).map(Number);

interface Running {
  child: ChildProcess;
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  demoToken: string;
}

async function startLocal(dataDir: string, timeoutMs = 60_000): Promise<Running> {
  const child = spawn(TSX, ['infra/local/start.ts'], {
    cwd: ROOT,
    env: childEnv(dataDir, { PORT: '0' }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  let exitedYet = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => {
      exitedYet = true;
      r({ code, signal });
    }),
  );
  running = { child, stdout: () => out, exited, demoToken: '' };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const token = /^\s*Demo token\s+(\S+)/m.exec(out)?.[1];
    if (token && /^\s*API base URL\s+\S+/m.test(out)) {
      running.demoToken = token;
      return running;
    }
    if (exitedYet) throw new Error(`npm start exited before its banner\n${out}\n${err}`);
    if (Date.now() > deadline) throw new Error(`no banner within ${timeoutMs} ms\n${out}\n${err}`);
    await sleep(100);
  }
}

async function stopLocal(r: Running) {
  if (r.child.exitCode === null && r.child.signalCode === null) process.kill(-r.child.pid!, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-r.child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, 30_000);
  const exit = await r.exited;
  clearTimeout(timer);
  return exit;
}

/** `tsx infra/invoke.ts <name> events/<name>.json`; also reports other DynamoDB Locals seen meanwhile. */
async function invoke(name: string, opts: { exceptJavaPid?: number } = {}) {
  const child = spawn(TSX, ['infra/invoke.ts', name, `events/${name}.json`], {
    cwd: ROOT,
    env: childEnv(dataDir),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  let done = false;
  const seenJava = new Set<number>();
  const exited = new Promise<number | null>((r) =>
    child.once('exit', (code) => {
      done = true;
      r(code);
    }),
  );
  const watcher = (async () => {
    while (!done) {
      for (const pid of javaFor(dataDir)) if (pid !== opts.exceptJavaPid) seenJava.add(pid);
      await sleep(50);
    }
  })();
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, 90_000);
  const code = await exited;
  clearTimeout(timer);
  await watcher;
  // The result is printed pretty (multi-line) last; anything before it would be log lines.
  const start = stdout.search(/^\{$/m);
  let result: any;
  try {
    result = start >= 0 ? JSON.parse(stdout.slice(start)) : undefined;
  } catch {
    result = undefined;
  }
  return { code, stdout, stderr, result, otherJava: [...seenJava] };
}

let dataDir: string;
let running: Running | undefined;
let demoToken: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tp-e2e-invoke-'));
  demoToken = (await startLocal(dataDir)).demoToken;
});

afterAll(async () => {
  if (running && running.child.exitCode === null && running.child.signalCode === null) await stopLocal(running);
  for (const pid of processesMentioning(dataDir)) {
    try {
      process.kill(pid, 'SIGKILL'); // only ever ours: the temp dir is unique to this file
    } catch {
      /* gone */
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('sample events cover the functions and the route table', () => {
  it('every handler module in functions/ has events/<name>.json', () => {
    expect(functionNames).toContain('authorizer');
    expect(functionNames.length).toBeGreaterThan(1);
    expect(functionNames.filter((f) => !eventNames.includes(f))).toEqual([]);
  });

  it('every event in events/ belongs to a function', () => {
    expect(eventNames.filter((e) => !functionNames.includes(e))).toEqual([]);
  });

  it('every route has events/<handler>.json with its method, resource and path', () => {
    expect(routes.length).toBeGreaterThan(0);
    for (const r of routes as readonly Route[]) {
      const file = join(ROOT, 'events', `${r.handler}.json`);
      expect(existsSync(file), file).toBe(true);
      const event = readEvent(r.handler);
      expect({ httpMethod: event.httpMethod, resource: event.resource }, r.handler).toEqual({ httpMethod: r.method, resource: r.path });
      expect(event.requestContext, r.handler).toMatchObject({ httpMethod: r.method, resourcePath: r.path });
      if (!r.path.includes('{')) expect(event.path, r.handler).toBe(r.path);
    }
  });

  it('every API handler module is on a route, and the authorizer event is a TOKEN event', () => {
    expect(functionNames.filter((f) => ![...AUTHORIZERS, ...PIPELINE].includes(f) && !routeFor(f))).toEqual([]);
    expect(readEvent('session-authorizer')).toMatchObject({ type: 'REQUEST', headers: { Cookie: expect.stringContaining('{{DEMO_SESSION}}') } });
    const event = readEvent('authorizer');
    expect(event).toMatchObject({ type: 'TOKEN', authorizationToken: 'Bearer {{DEMO_TOKEN}}' });
    expect(event.methodArn).toMatch(/^arn:aws:execute-api:[^:]+:\d{12}:[^/]+\/[^/]+\/(GET|POST|PATCH|DELETE)\/api\/v1\//);
  });
});

const AUTHORIZERS = ['authorizer', 'session-authorizer'];
/** Functions behind the table stream and the delivery queue, not behind a route. */
const PIPELINE = ['webhook-fanout', 'webhook-delivery'];
const MISSING_ID_SAMPLES: Record<string, string> = {
  'revoke-token': 'token',
  'get-webhook': 'webhook',
  'update-webhook': 'webhook',
  'delete-webhook': 'webhook',
  'test-webhook': 'webhook',
};

/** What each sample event must produce: the route's success, or the documented exception. */
function expectSampleResult(name: string, result: any, stdout: string) {
  if (AUTHORIZERS.includes(name)) {
    const statements = result.policyDocument.Statement as { Effect: string; Resource: string | string[] }[];
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.every((s) => s.Effect === 'Allow')).toBe(true);
    expect(statements.flatMap((s) => s.Resource)).toContain(readEvent(name).methodArn);
    expect(result.context).toMatchObject({ tenantId: DEMO.tenantId, tenantSlug: DEMO.slug });
    if (name === 'session-authorizer') expect(result.context).toMatchObject({ userId: DEMO.adminUserId, role: 'admin' });
    expect(stdout).not.toContain(demoToken);
    return;
  }
  if (PIPELINE.includes(name)) {
    // Queue and stream consumers answer with the records to retry: none here.
    expect(result).toEqual({ batchItemFailures: [] });
    return;
  }
  const route = routeFor(name)!;
  const body = JSON.parse(result.body);
  if (MISSING_ID_SAMPLES[name]) {
    // These samples name ids that exist nowhere, so invoking them shows the 404 path and changes nothing.
    expect(result.statusCode).toBe(404);
    expect(body).toEqual({ error: `${MISSING_ID_SAMPLES[name]} not found` });
    return;
  }
  expect(result.statusCode, result.body).toBe(route.status);
  if (name === 'logout') expect(body).toEqual({ success: true });
  else if (name === 'openapi') expect(body.openapi).toMatch(/^3\.1\./);
  else if (name === 'create-webhook') expect(body).toMatchObject({ success: true, webhook: { secret: expect.stringMatching(/^whsec_/) } });
  else expect(body.data ?? null).not.toBeNull();
}

describe('npm run invoke', { timeout: 120_000 }, () => {
  it('has functions to invoke', () => {
    expect(invokable).toEqual(functionNames);
  });

  describe('while npm start runs: reuses its DynamoDB Local (runtime.json)', () => {
    it.each(invokable)('%s answers its sample event', async (name) => {
      const runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
      const res = await invoke(name, { exceptJavaPid: runtime.javaPid });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(new RegExp(`^${name} answered in \\d+(\\.\\d+)? ms$`, 'm'));
      expect(res.otherJava).toEqual([]);
      expectSampleResult(name, res.result, res.stdout);
    });
  });

  describe('on its own, on the seeded data directory', () => {
    beforeAll(async () => {
      const exit = await stopLocal(running!);
      expect(exit.code).toBe(0);
      expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
      expect(javaFor(dataDir)).toEqual([]);
    });

    it.each(['get-pipeline', 'authorizer', 'get-session'])('%s starts and stops its own DynamoDB Local', async (name) => {
      const res = await invoke(name);
      expect(res.code, res.stderr).toBe(0);
      expect(res.otherJava.length).toBeGreaterThan(0); // it ran its own DynamoDB Local…
      expect(javaFor(dataDir)).toEqual([]); // …and stopped it
      expectSampleResult(name, res.result, res.stdout);
    });
  });
});
