/**
 * The "fresh clone" story, through real subprocesses: `npm start` on an empty data directory,
 * the admin CLI against it, a graceful stop that takes its Java process along, a restart on
 * the same data, and the admin CLI on its own (its own DynamoDB Local, started and stopped).
 * Each way of ending npm start needs a start of its own (a SIGTERM to its group, a SIGTERM to the
 * npm pid alone, a SIGKILL to the npm pid, a SIGKILL to the runtime), and each start serves
 * everything else this file checks: no start is made for a check that one of them can answer.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClient } from '../../dev/table';
import { until } from '../helpers/until';
import { e2eSandbox, isAlive, javaFor, processesMentioning, ROOT, run, sleep, stopLocal, type Running } from '../helpers/processes';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN_RE = /^tps_[0-9A-Za-z]{36}$/;

const admin = (args: string[], dataDir: string, opts?: Parameters<typeof run>[3]) => run('scripts/admin.ts', args, dataDir, opts);

async function call(url: string, token: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body !== undefined && { 'Content-Type': 'application/json' }),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

const { freshDir, startLocal, startNpm, cleanup } = e2eSandbox();

// Stops every npm start of this file, kills anything still mentioning our unique temp dirs
// (started by this file: do not leak it) and removes them.
afterAll(() => cleanup(10_000), 60_000);

describe('npm start on a fresh data directory', { timeout: 120_000 }, () => {
  let dataDir: string;
  let first: Running;
  let javaPid: number;
  let acmeToken: string;
  let reqId: string;
  let candidateId: string;

  beforeAll(async () => {
    dataDir = freshDir('start');
    first = await startLocal(dataDir);
  });

  it('prints a banner with the real port (PORT=0), a demo token and a curl line that match', () => {
    expect(first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(first.baseUrl).not.toMatch(/:0\//);
    expect(first.demoToken).toMatch(TOKEN_RE);
    expect(first.curl.token).toBe(first.demoToken);
    expect(first.curl.url).toBe(`${first.baseUrl}/pipeline`);
    expect(readFileSync(join(dataDir, 'demo-token'), 'utf8').trim()).toBe(first.demoToken);
    expect(first.stdout()).toContain('seeded the demo workspace "demo"');
  });

  it('writes runtime.json naming its own Java process, which runs on this data directory', () => {
    const runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
    expect(runtime).toMatchObject({ tableName: 'talent-pipeline', url: first.baseUrl.replace(/\/api\/v1$/, '') });
    expect(runtime.javaPid).toEqual(expect.any(Number));
    javaPid = runtime.javaPid;
    expect(isAlive(javaPid)).toBe(true);
    expect(javaFor(dataDir).map((p) => p.pid)).toEqual([javaPid]);
  });

  // The shared browser runtimes hash at a test cost (test/helpers/cheap-runtime-hash.mjs); this
  // runtime, started as a developer starts it, must hash at the deployed one.
  it('stores the demo login at the deployed scrypt cost (N=2^17)', async () => {
    const runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
    const login = JSON.parse(readFileSync(join(dataDir, 'demo-login.json'), 'utf8')) as { email: string };
    const found = await localClient(runtime.dynamodbEndpoint).send(
      new ScanCommand({
        TableName: runtime.tableName,
        FilterExpression: '#type = :user AND email = :email',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':user': { S: 'user' }, ':email': { S: login.email } },
      }),
    );
    expect(found.Items).toHaveLength(1);
    expect(found.Items![0]!.password_hash!.S).toMatch(/^scrypt\$131072\$8\$1\$/);
  });

  it('answers the printed curl request with the seeded pipeline', async () => {
    const res = await call(first.curl.url, first.curl.token);
    expect(res.status).toBe(200);
    const counts = res.body.data.stage_counts as Record<string, number>;
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(0);
    for (const stage of ['applied', 'ai_screened', 'interview_scheduled', 'interviewed', 'offer_sent']) {
      expect(counts[stage], stage).toBeGreaterThan(0);
    }
    expect(res.body.data.total_active).toBeGreaterThan(0);
    expect(res.body.data.stuck_candidates.length).toBeGreaterThan(0);
    expect(res.body.data.stuck_candidates[0]).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      days_in_stage: expect.any(Number),
    });
  });

  it('logs one line per request', async () => {
    const line = /^GET \/api\/v1\/pipeline 200 \d+(\.\d+)?ms$/m;
    for (let i = 0; i < 50 && !line.test(first.stdout()); i++) await sleep(100);
    expect(first.stdout()).toMatch(line);
  });

  it('admin tenant create acts on the running data (no second DynamoDB Local) and prints only the id', async () => {
    const res = await admin(['tenant', 'create', 'acme', '--name', 'Acme'], dataDir, { watchJavaFor: dataDir, exceptPid: javaPid });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(res.stdout.trim()).toMatch(UUID_RE);
    expect(res.otherJava).toEqual([]);
  });

  it('admin token create prints exactly one line: the token', async () => {
    const res = await admin(['token', 'create', 'acme', '--scopes', 'candidates:read,candidates:write'], dataDir);
    expect(res.code).toBe(0);
    // stdout is only the token; its id and expiry (the workspace's default lifetime) are a notice on stderr.
    expect(res.stderr).toMatch(/^workspace token [0-9a-f-]{36} expires at \d{4}-\d\d-\d\dT[\d:.]+Z\n$/);
    expect(res.stdout.endsWith('\n')).toBe(true);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(TOKEN_RE);
    acmeToken = lines[0]!;
  });

  it('admin requisition create prints exactly the new id', async () => {
    const res = await admin(['requisition', 'create', 'acme', '--title', 'QA Lead', '--status', 'open'], dataDir);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/\n$/);
    expect(res.stdout.trim()).toMatch(UUID_RE);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    reqId = res.stdout.trim();
  });

  it('the new token works over HTTP within its scopes only', async () => {
    const created = await call(`${first.baseUrl}/candidates`, acmeToken, {
      method: 'POST',
      body: { name: 'Quinn Tester', email: 'quinn@example.com', req_id: reqId },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Quinn Tester', req_id: reqId, req_title: 'QA Lead', stage: 'applied' });
    candidateId = created.body.data.id;

    const list = await call(`${first.baseUrl}/candidates`, acmeToken);
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([candidateId]); // only acme's, not demo's

    const pipeline = await call(`${first.baseUrl}/pipeline`, acmeToken);
    expect(pipeline.status).toBe(403);
    expect(pipeline.body).toEqual({ error: expect.any(String), code: 'missing_scope' });
    const reqs = await call(`${first.baseUrl}/requisitions`, acmeToken);
    expect(reqs.status).toBe(403);
    expect(reqs.body).toEqual({ error: expect.any(String), code: 'missing_scope' });
  });

  it('a user made with the admin CLI logs in, mints a scoped token, uses it, revokes it and logs out', async () => {
    const site = first.baseUrl.replace(/\/api\/v1$/, '');
    const created = await admin(
      ['user', 'create', 'acme', 'lead@acme.example', '--password', 'a long enough password', '--role', 'admin'],
      dataDir,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toMatch(UUID_RE);
    const json = { 'Content-Type': 'application/json' };

    const login = await fetch(`${site}/api/session`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'lead@acme.example', password: 'a long enough password' }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as any).data.tenant.slug).toBe('acme');
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;

    const minted = await fetch(`${site}/api/tokens`, {
      method: 'POST',
      headers: { ...json, Cookie: cookie },
      body: JSON.stringify({ name: 'e2e', scopes: ['requisitions:read'] }),
    });
    expect(minted.status).toBe(201);
    const { data: token } = (await minted.json()) as any;
    const reqs = await call(`${first.baseUrl}/requisitions`, token.token);
    expect(reqs.status).toBe(200);
    expect(reqs.body.data.map((r: { id: string }) => r.id)).toContain(reqId);
    expect((await call(`${first.baseUrl}/candidates`, token.token)).status).toBe(403);

    // What the CLI made is in the workspace's audit log, by the system actor admin-cli, once the
    // running stream consumer has expanded its intents (the log is eventually consistent).
    const audit = await until('the admin CLI records in the audit log', async () => {
      const page = (await (await fetch(`${site}/api/audit?actor=admin-cli`, { headers: { Cookie: cookie } })).json()) as any;
      return page.data.length >= 3 && page;
    });
    expect(audit.data.map((r: { action: string; actor: unknown }) => [r.action, r.actor])).toEqual(
      expect.arrayContaining([
        ['member.added', { type: 'system', id: 'admin-cli' }],
        ['token.created', { type: 'system', id: 'admin-cli' }],
        ['requisition.created', { type: 'system', id: 'admin-cli' }],
      ]),
    );
    expect(audit.data.find((r: { action: string }) => r.action === 'member.added').target.id).toBe(created.stdout.trim());

    const revoked = await fetch(`${site}/api/tokens/${token.id}`, { method: 'DELETE', headers: { Cookie: cookie } });
    expect(revoked.status).toBe(200);
    const listed = (await (await fetch(`${site}/api/tokens`, { headers: { Cookie: cookie } })).json()) as any;
    expect(listed.data.map((t: { id: string }) => t.id)).not.toContain(token.id);

    expect((await fetch(`${site}/api/session`, { method: 'DELETE', headers: { Cookie: cookie } })).status).toBe(200);
    expect((await fetch(`${site}/api/session`, { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it.each([
    ['unknown command', ['tenant', 'delete', 'acme'], /unknown command "tenant delete"/],
    ['missing --scopes', ['token', 'create', 'acme'], /missing --scopes/],
    ['unknown scope', ['token', 'create', 'acme', '--scopes', 'candidates:read,admin'], /unknown scope "admin"/],
    ['bad --status', ['requisition', 'create', 'acme', '--title', 'X', '--status', 'archived'], /--status must be one of/],
    ['unknown tenant slug', ['token', 'create', 'no-such-tenant', '--scopes', '*'], /tenant no-such-tenant not found/],
    ['duplicate tenant slug', ['tenant', 'create', 'acme'], /tenant acme already exists/],
    ['invalid slug', ['tenant', 'create', 'Bad_Slug'], /invalid slug "Bad_Slug"/],
  ])('admin: %s -> non-zero exit, message on stderr, nothing on stdout', async (_label, args, message) => {
    const res = await admin(args, dataDir);
    expect(res.code).not.toBe(0);
    expect(res.code).not.toBeNull();
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(message);
  });

  it('SIGTERM to the process group stops the API and its Java process and removes runtime.json', async () => {
    const exit = await stopLocal(first);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(first.stdout()).toMatch(/\[local\] SIGTERM: stopping[\s\S]*\[local\] stopped/);
    expect(() => process.kill(javaPid, 0)).toThrow();
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    expect(processesMentioning(dataDir)).toEqual([]);
    await expect(fetch(`${first.baseUrl}/pipeline`)).rejects.toThrow();
  });

  // The real `npm start` script this time: a supervisor's view, which knows the pid it started
  // (npm) and nothing below it. npm passes a SIGTERM on to the runtime alone (the script execs
  // it), not to its group: the runtime must stop its Java itself.
  describe('restarted by the real `npm start` script on the same data directory', () => {
    let second: Running;
    beforeAll(async () => {
      second = await startNpm(dataDir);
    });

    it('runs on the Node major of the deployed functions', async () => {
      await expectDeployedNodeMajor(second, dataDir);
    });

    it('keeps the demo token, the admin-made token and the candidate', async () => {
      expect(second.demoToken).toBe(first.demoToken);
      expect(second.stdout()).toContain('demo workspace found');
      const list = await call(`${second.baseUrl}/candidates`, acmeToken);
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([expect.objectContaining({ id: candidateId, name: 'Quinn Tester', req_id: reqId })]);
      const pipeline = await call(`${second.baseUrl}/pipeline`, second.demoToken);
      expect(pipeline.status).toBe(200);
      expect(pipeline.body.data.stuck_candidates.length).toBeGreaterThan(0);
    });

    it('stops cleanly again on a SIGTERM to the npm pid alone, which reaches the runtime alone (not its group): its Java stops too', async () => {
      await expectStopsEntirely(second, dataDir, 'SIGTERM');
    });
  });
});

/** Gone or a zombie (exited, not yet reaped: it holds no port and runs nothing). */
function ended(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** A runtime that `startNpm` started runs on the Node major of the stack's functions (NODEJS_<major>_X). */
async function expectDeployedNodeMajor(npm: Running, dataDir: string) {
  const stackMajor = /Runtime\.NODEJS_(\d+)_X/.exec(readFileSync(join(ROOT, 'infra/constructs/table-function.ts'), 'utf8'))?.[1];
  expect(stackMajor).toBeDefined();
  expect(npm.stdout()).toMatch(new RegExp(`Talent Pipeline is running on Node v${stackMajor}\\.`));
  const runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
  expect(isAlive(runtime.pid)).toBe(true);
  expect(isAlive(runtime.javaPid)).toBe(true);
}

/**
 * `signal` to the npm pid alone stops everything: npm, the runtime, its Java, the port, runtime.json.
 * SIGTERM: npm passes it on to the runtime, which stops cleanly, and npm ends with its exit code.
 * SIGKILL: npm passes on nothing, and the runtime must notice that its parent is gone.
 */
async function expectStopsEntirely(npm: Running, dataDir: string, signal: 'SIGTERM' | 'SIGKILL') {
  const runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
  const port = Number(new URL(runtime.url).port);
  expect(port).toBeGreaterThan(0);
  expect(await portFree(port)).toBe(false);
  expect(isAlive(runtime.javaPid)).toBe(true);
  process.kill(npm.child.pid!, signal);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !(ended(npm.child.pid!) && ended(runtime.pid) && ended(runtime.javaPid))) await sleep(100);
  expect({ npm: ended(npm.child.pid!), runtime: ended(runtime.pid), java: ended(runtime.javaPid) }).toEqual({
    npm: true,
    runtime: true,
    java: true,
  });
  const exit = await npm.exited;
  expect(exit).toEqual(signal === 'SIGTERM' ? { code: 0, signal: null } : { code: null, signal: 'SIGKILL' });
  expect(isAlive(runtime.javaPid)).toBe(false);
  expect(await portFree(port)).toBe(true);
  expect(npm.stdout()).toMatch(signal === 'SIGTERM' ? /\[local\] SIGTERM: stopping[\s\S]*\[local\] stopped/ : /\[local\] stopped/);
  expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
  expect(processesMentioning(dataDir)).toEqual([]);
}

describe('the real `npm start` script', { timeout: 120_000 }, () => {
  it('runs on the Node major of the deployed functions and stops entirely on a SIGKILL to the npm pid alone', async () => {
    const dataDir = freshDir('npm');
    const npm = await startNpm(dataDir);
    await expectDeployedNodeMajor(npm, dataDir);
    await expectStopsEntirely(npm, dataDir, 'SIGKILL');
  });
});

// One data directory for the admin CLI on its own and for a crash: what the CLI wrote first on
// its own DynamoDB Local is read by the npm start that is then killed outright.
describe('admin CLI without npm start, and after npm start is killed outright', { timeout: 120_000 }, () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = freshDir('admin');
  });

  it('starts and stops its own DynamoDB Local on a fresh DATA_DIR and leaves no Java behind', async () => {
    const created = await admin(['tenant', 'create', 'solo', '--name', 'Solo'], dataDir, { watchJavaFor: dataDir });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout.trim()).toMatch(UUID_RE);
    expect(created.otherJava.length).toBeGreaterThan(0); // it did run its own DynamoDB Local…
    expect(javaFor(dataDir)).toEqual([]); // …and stopped it
    expect(processesMentioning(dataDir)).toEqual([]);
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    expect(readdirSync(join(dataDir, 'dynamodb')).length).toBeGreaterThan(0);
  });

  it('what it wrote persisted: npm start on that data finds the tenant (a token for it, a second one refused)', async () => {
    await startLocal(dataDir);
    const { javaPid } = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
    const token = await admin(['token', 'create', 'solo', '--scopes', '*'], dataDir, { watchJavaFor: dataDir, exceptPid: javaPid });
    expect(token.code).toBe(0);
    expect(token.stdout.trim()).toMatch(TOKEN_RE);
    const dup = await admin(['tenant', 'create', 'solo'], dataDir, { watchJavaFor: dataDir, exceptPid: javaPid });
    expect(dup.code).not.toBe(0);
    expect(dup.stdout).toBe('');
    expect(dup.stderr).toMatch(/already exists/);
    expect([...token.otherJava, ...dup.otherJava]).toEqual([]);
    expect(javaFor(dataDir).map((p) => p.pid)).toEqual([javaPid]);
  });

  it('after npm start is killed outright, the next command clears its orphaned Java and stale runtime.json', async () => {
    const runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
    process.kill(runtime.pid, 'SIGKILL'); // the node process that owns Java: no chance to clean up
    for (let i = 0; i < 50 && isAlive(runtime.pid); i++) await sleep(100);
    expect(isAlive(runtime.pid)).toBe(false);
    expect(isAlive(runtime.javaPid)).toBe(true); // orphaned
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(true); // stale

    const res = await admin(['tenant', 'create', 'after-crash'], dataDir);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toMatch(UUID_RE);
    expect(isAlive(runtime.javaPid)).toBe(false);
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    expect(javaFor(dataDir)).toEqual([]);
  });
});
