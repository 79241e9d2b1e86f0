/**
 * `npm run invoke -- <function> <event.json>` with every sample event in events/, against a
 * data directory that `npm start` has seeded, and the sample events' coverage of functions/
 * and of the route table.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO } from '../../dev/demo-data';
import { routes, type Route } from '../../lib/routes';
import {
  type Batch,
  CHEAP_PASSWORDS,
  demoSession,
  e2eSandbox,
  javaFor,
  ROOT,
  run,
  startBatch,
  stopLocal,
  type Running,
} from '../helpers/processes';
import { tlsServers } from '../helpers/tls-servers';

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

/**
 * `tsx scripts/invoke.ts <name> events/<name>.json`, or the same arguments as one line of a
 * running `--batch` process; also reports other DynamoDB Locals seen meanwhile.
 */
async function invoke(name: string, opts: { exceptJavaPid?: number; send?: boolean; batch?: Batch } = {}) {
  const args = [name, `events/${name}.json`, ...(opts.send ? ['--send'] : [])];
  const watch = { watchJavaFor: dataDir, exceptPid: opts.exceptJavaPid };
  const res = await (opts.batch ? opts.batch.run(args, watch) : run('scripts/invoke.ts', args, dataDir, watch));
  // The result is printed pretty (multi-line) last; anything before it would be log lines.
  const start = res.stdout.search(/^\{$/m);
  let result: any;
  try {
    result = start >= 0 ? JSON.parse(res.stdout.slice(start)) : undefined;
  } catch {
    result = undefined;
  }
  return { ...res, result };
}

const sandbox = e2eSandbox();
let dataDir: string;
let running: Running;
let demoToken: string;

beforeAll(async () => {
  dataDir = sandbox.freshDir('invoke');
  running = await sandbox.startLocal(dataDir, undefined, CHEAP_PASSWORDS);
  demoToken = running.demoToken;
});

// Stops npm start if still running, kills anything left on the (unique) data dir, removes it.
afterAll(() => sandbox.cleanup(30_000), 60_000);

describe('sample events cover the functions and the route table', () => {
  it('every handler module in functions/ has events/<name>.json', () => {
    expect(functionNames).toContain('authorizer');
    expect(functionNames.length).toBeGreaterThan(1);
    expect(functionNames.filter((f) => !eventNames.includes(f))).toEqual([]);
  });

  it('every event in events/ belongs to a function', () => {
    // A console twin's event (`<handler>.console.json`) runs the same handler module.
    expect(eventNames.filter((e) => !functionNames.includes(e.replace(/\.console$/, '')))).toEqual([]);
  });

  it('every route has events/<handler>.json (a console twin <handler>.console.json) with its method, resource and path', () => {
    expect(routes.filter((r) => r.twinOf).length).toBeGreaterThan(0);
    for (const r of routes as readonly Route[]) {
      const name = r.twinOf ? `${r.handler}.console` : r.handler;
      const file = join(ROOT, 'events', `${name}.json`);
      expect(existsSync(file), file).toBe(true);
      const event = readEvent(name);
      expect({ httpMethod: event.httpMethod, resource: event.resource }, r.handler).toEqual({ httpMethod: r.method, resource: r.path });
      expect(event.requestContext, r.handler).toMatchObject({ httpMethod: r.method, resourcePath: r.path });
      if (!r.path.includes('{')) expect(event.path, r.handler).toBe(r.path);
    }
  });

  it('every API handler module is on a route, and the authorizer event is a TOKEN event', () => {
    expect(functionNames.filter((f) => ![...AUTHORIZERS, ...PIPELINE, ...SCHEDULED].includes(f) && !routeFor(f))).toEqual([]);
    expect(readEvent('session-authorizer')).toMatchObject({
      type: 'REQUEST',
      headers: { Cookie: expect.stringContaining('{{DEMO_SESSION}}') },
    });
    const event = readEvent('authorizer');
    expect(event).toMatchObject({ type: 'TOKEN', authorizationToken: 'Bearer {{DEMO_TOKEN}}' });
    expect(event.methodArn).toMatch(/^arn:aws:execute-api:[^:]+:\d{12}:[^/]+\/[^/]+\/(GET|POST|PUT|PATCH|DELETE)\/api\/v1\//);
  });
});

/** API-token writes: the handlers whose writes become webhook events (scripts/invoke.ts refuses them while endpoints would receive them). */
const EVENT_SOURCES: string[] = routes.filter((r) => r.auth === 'token' && r.access === 'write').map((r) => r.handler);
const AUTHORIZERS = ['authorizer', 'session-authorizer'];
/** Functions behind the table stream and the queues, not behind a route. */
const PIPELINE = ['webhook-fanout', 'webhook-delivery', 'stuck-reindex', 'import-worker', 'file-worker', 'interview-invitations'];
/** Functions behind a schedule, not behind a route: the daily retention run, the screening rejections run, the two interview follow-up runs and the offer expiry run. */
const SCHEDULED = ['retention', 'screening-rejections', 'interview-moves', 'scorecard-reminders', 'offer-expiry'];
const MISSING_ID_SAMPLES: Record<string, string> = {
  'revoke-token': 'token',
  'get-webhook': 'webhook',
  'update-webhook': 'webhook',
  'delete-webhook': 'webhook',
  'test-webhook': 'webhook',
  'change-member-role': 'member',
  'remove-member': 'member',
  'deactivate-member': 'member',
  'reactivate-member': 'member',
  'rotate-token': 'token',
  'reset-member-password': 'member',
  'clear-member-lockout': 'member',
  'reset-member-two-factor': 'member',
  'erase-candidate': 'candidate',
  'overturn-screening': 'candidate',
  'get-import': 'import',
  'get-person': 'person',
  'merge-person': 'person',
  'get-posting': 'requisition',
  'get-board-job': 'job',
  'put-posting': 'requisition',
  'apply-to-job': 'job',
  'create-cv-upload': 'job',
  'careers-cv-upload': 'job',
  'careers-apply': 'job',
  'list-import-errors': 'import',
  'list-webhook-deliveries': 'webhook',
  'resend-webhook-event': 'webhook',
  'replay-webhook': 'webhook',
  'get-webhook-replay': 'webhook',
  'rotate-webhook-secret': 'webhook',
  'put-interview-plan': 'requisition',
  'create-interview': 'candidate',
  'get-interview': 'interview',
  'update-interview': 'interview',
  'cancel-interview': 'interview',
  'submit-scorecard': 'interview',
  'list-interview-scorecards': 'interview',
  'list-candidate-scorecards': 'candidate',
  'create-offer': 'candidate',
  'list-offers': 'candidate',
  'get-offer': 'offer',
  'update-offer': 'offer',
  'change-offer-status': 'offer',
  'get-placement': 'placement',
  'update-placement': 'placement',
  'cancel-placement': 'placement',
  'create-placement': 'candidate',
  'decide-offer-approval': 'offer',
  'create-note': 'person',
  'list-notes': 'person',
  'get-note': 'note',
  'update-note': 'note',
  'delete-note': 'note',
  'list-activity': 'person',
  'read-mention': 'mention',
  'attach-file': 'person',
  'list-files': 'person',
  'get-file': 'person',
  'get-file-text': 'person',
  'download-file': 'person',
  'delete-file': 'person',
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
  if (name === 'interview-moves' || name === 'scorecard-reminders') {
    // A run at the sample's invocation: what it found due and what it did, counts only.
    const done = name === 'interview-moves' ? 'moved' : 'reminded';
    expect(result).toEqual({ due: expect.any(Number), [done]: expect.any(Number) });
    return;
  }
  if (SCHEDULED.includes(name)) {
    // The demo workspace has no retention rule, no screening due and no sent offer with an expiry: the runs change nothing.
    if (name === 'screening-rejections') expect(result).toEqual({ due: 0, rejected: 0 });
    else if (name === 'offer-expiry') expect(result).toEqual({ due: 0, expired: 0 });
    else expect(result).toEqual({ workspaces: 0, erased: 0, resweep: 0 });
    return;
  }
  if (name === 'file-worker') {
    // The sample's file exists nowhere: the worker finds no record, changes nothing and answers nothing.
    expect(result ?? null).toBeNull();
    return;
  }
  if (name === 'import-worker') {
    // One job per message (batch size 1): a run that fails queues the job again itself, so only a
    // malformed message is reported. The sample's job exists nowhere: nothing to do, nothing failed.
    expect(result).toEqual({ batchItemFailures: [] });
    return;
  }
  if (PIPELINE.includes(name)) {
    // Queue and stream consumers answer with the records to retry: none here.
    expect(result).toEqual({ batchItemFailures: [] });
    return;
  }
  const route = routeFor(name)!;
  if (route.html) {
    // The careers pages: the demo's list (200 once it posts a job), the not-found page for a job that exists nowhere.
    expect([route.status, 404]).toContain(result.statusCode);
    expect(result.headers['Content-Type']).toBe('text/html; charset=utf-8');
    return;
  }
  const body = JSON.parse(result.body);
  if (MISSING_ID_SAMPLES[name]) {
    // These samples name ids that exist nowhere, so invoking them shows the 404 path and changes nothing.
    expect(result.statusCode).toBe(404);
    expect(body).toEqual({ error: `${MISSING_ID_SAMPLES[name]} not found`, code: 'not_found' });
    return;
  }
  if (name === 'create-import') {
    // The sample is a dry run: the rows judged (one would be created, one fails), nothing written.
    expect([result.statusCode, body.data.dry_run, body.data.counts]).toEqual([200, true, { total: 2, created: 1, skipped: 0, failed: 1 }]);
    return;
  }
  if (name === 'get-upload') {
    // No upload under that id: the upload's own code, so a client tells it from a missing person.
    expect([result.statusCode, body.code]).toEqual([404, 'upload_not_found']);
    return;
  }
  if (name === 'verify-two-factor') {
    expect([result.statusCode, body.code]).toEqual([409, 'conflict']);
    return;
  }
  if (name === 'confirm-two-factor') {
    expect([result.statusCode, body.field]).toEqual([400, 'code']);
    return;
  }
  if (name === 'change-password') {
    // A wrong current password: the sample never changes the demo admin's password.
    expect([result.statusCode, body]).toEqual([
      400,
      { error: 'current_password is incorrect', code: 'invalid_field', field: 'current_password' },
    ]);
    return;
  }
  expect(result.statusCode, result.body).toBe(route.status);
  // The demo admin has two-factor off: turning it off again is a success that checks no password.
  if (name === 'logout' || name === 'disable-two-factor') expect(body).toEqual({ success: true });
  else if (name === 'openapi') expect(body.openapi).toMatch(/^3\.1\./);
  else if (name === 'create-webhook') expect(body).toMatchObject({ success: true, webhook: { secret: expect.stringMatching(/^whsec_/) } });
  else expect(body.data ?? null).not.toBeNull();
}

describe('npm run invoke', { timeout: 120_000 }, () => {
  it('has functions to invoke', () => {
    expect(invokable).toEqual(functionNames);
  });

  describe('while npm start runs: reuses its DynamoDB Local (runtime.json)', () => {
    // One `--batch` process answers the samples (a process per sample cost ~1.5 s each in Node
    // start-up and module loading); the fan-out's dry run, which needs a queue of its own, and
    // the refusal, --send and own-DynamoDB-Local cases below run as separate commands.
    let batch: Batch;
    beforeAll(() => {
      batch = startBatch('scripts/invoke.ts', dataDir);
    });
    afterAll(async () => {
      expect(await batch.close()).toEqual({ code: 0, signal: null });
    });

    it.each(invokable)('%s answers its sample event', async (name) => {
      const runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
      // By the time the later API-token writes run, the create-webhook sample has given the demo
      // workspace an active endpoint, so they take --send (the refusal itself is tested below).
      const send = EVENT_SOURCES.includes(name);
      const dryRun = name === 'webhook-fanout';
      const res = await invoke(name, { exceptJavaPid: runtime.javaPid, send, batch: dryRun ? undefined : batch });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(new RegExp(`^${name} answered in \\d+(\\.\\d+)? ms$`, 'm'));
      expect(res.otherJava).toEqual([]);
      expectSampleResult(name, res.result, res.stdout);
    });

    it('a batch refuses the fan-out dry run and a malformed line, and goes on', async () => {
      const dry = await batch.run(['webhook-fanout', 'events/webhook-fanout.json']);
      expect([dry.code, dry.stderr]).toEqual([2, expect.stringMatching(/needs a queue of its own: run it alone, without --batch/)]);
      const unknown = await batch.run(['no-such-function', 'events/get-pipeline.json']);
      expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringMatching(/^Usage: npm run invoke/)]);
      const next = await invoke('get-pipeline', { batch });
      expect(next.code, next.stderr).toBe(0);
      expectSampleResult('get-pipeline', next.result, next.stdout);
    });
  });

  describe('sample events never reach a real receiver by surprise', () => {
    const servers = tlsServers(inject('tls'));
    const hits: string[] = [];
    let hookId = '';
    let session: (method: string, path: string, body?: unknown) => Promise<Response>;

    beforeAll(async () => {
      const receiver = await servers.start((req, res) => {
        hits.push(String(req.headers['x-service-event']));
        res.end('ok');
      });
      const { site, cookie } = await demoSession(running);
      session = (method, path, body) =>
        fetch(`${site}${path}`, {
          method,
          headers: { Cookie: cookie, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const created = await session('POST', '/api/webhooks', { url: receiver.url('/demo') });
      expect(created.status).toBe(201);
      hookId = ((await created.json()) as any).webhook.id;
    });
    afterAll(async () => {
      if (hookId) await session('DELETE', `/api/webhooks/${hookId}`);
      await servers.closeAll();
    });

    it('webhook-fanout is a dry run: it shows the delivery and sends nothing', async () => {
      const res = await invoke('webhook-fanout');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/dry run: 1 deliveries would have been queued/);
      expect(res.stderr).toContain(`candidate.stage_changed`);
      expect(res.stderr).toContain(hookId);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(hits).toEqual([]);
    });

    it('create-candidate refuses while the workspace has active endpoints', async () => {
      const res = await invoke('create-candidate');
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/\d+ active webhook endpoint\(s\) that would receive them/);
      expect(res.stderr).toMatch(/Nothing was written/);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(hits).toEqual([]);
    });

    it('--send does it for real', async () => {
      const res = await run('scripts/invoke.ts', ['webhook-fanout', 'events/webhook-fanout.json', '--send'], dataDir);
      expect(res.code, res.stderr).toBe(0);
      const deadline = Date.now() + 15_000;
      while (!hits.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(hits).toEqual(['candidate.stage_changed']);
    });
  });

  // The own-DynamoDB-Local path, as a developer runs it: one command, with npm start stopped. Its
  // sample signs in (a session written to that DynamoDB Local) and reads the session back. The
  // other samples' answers do not depend on whose DynamoDB Local serves them: they are checked
  // above, against npm start's.
  describe('on its own, on the seeded data directory', () => {
    beforeAll(async () => {
      const exit = await stopLocal(running);
      expect(exit.code).toBe(0);
      expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
      expect(javaFor(dataDir)).toEqual([]);
    });

    it('get-session starts and stops its own DynamoDB Local', async () => {
      const res = await invoke('get-session');
      expect(res.code, res.stderr).toBe(0);
      expect(res.otherJava.length).toBeGreaterThan(0); // it ran its own DynamoDB Local…
      expect(javaFor(dataDir)).toEqual([]); // …and stopped it
      expectSampleResult('get-session', res.result, res.stdout);
    });
  });
});
