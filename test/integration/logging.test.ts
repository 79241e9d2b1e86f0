/**
 * What the functions write to stdout, through the real handlers, the local gateway and the local
 * webhook pipeline against DynamoDB Local: each log line docs/observability.md lists and the operators' queries
 * (docs/operating.md) rely on is there with its fields and the request's correlation id (= X-Request-Id), each EMF
 * metric is there, and no secret or PII value appears anywhere in the output.
 *
 * Calls are made one at a time: the local runtime shares one logger between overlapping
 * invocations, so only sequential calls pin a line to its request.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { metrics } from '../../lib/metrics';
import { until } from '../helpers/until';
import { captureOutput, type CapturedOutput } from '../helpers/capture';
import { useLogLevel } from '../helpers/log-level';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { tlsServers, type TestServer } from '../helpers/tls-servers';

// The in-process tiers run without metrics (vitest.config.ts); this file checks them (each EMF
// line's instance reads the switch as it is made, lib/metrics.ts; table-env.ts resets it).
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
/** The shared metrics instance's cold start, which the first invocation in the worker's graph took. */
const coldStart = metrics as unknown as { coldStart: boolean };
let coldBefore: boolean;
// The level these lines need (the suite runs at WARN): DEBUG, to see the DEBUG-only lines too.
useLogLevel('DEBUG');

let output: CapturedOutput;

type Line = Record<string, any>;
const lines = (): Line[] => output.jsonLines();
const logLines = (message: string) => lines().filter((l) => l.message === message);
const emf = () => lines().filter((l) => l._aws?.CloudWatchMetrics);
const metricLines = (name: string) =>
  emf().filter((l) => l._aws.CloudWatchMetrics[0].Metrics.some((m: { Name: string }) => m.Name === name));

// ---- a receiver: /ok accepts, /fail answers 500, /gone answers 410 --------------------------

const servers = tlsServers(inject('tls'));
const signatures: string[] = [];
let receiver: TestServer;
const hookUrl = (path: string) => receiver.url(path);

let stack: Stack;
let t: TestTenant;
let admin: { id: string; email: string };
let cookie: string;
const secrets: string[] = [];

beforeAll(async () => {
  // This file's first invocation counts as a cold start, as in a new Lambda instance.
  coldBefore = coldStart.coldStart;
  coldStart.coldStart = true;
  output = captureOutput();
  receiver = await servers.start((req, res) => {
    signatures.push(String(req.headers['webhook-signature'] ?? ''));
    if (req.url!.startsWith('/gone')) return void res.writeHead(410).end('gone');
    if (req.url!.startsWith('/fail')) return void res.writeHead(500).end('receiver broke');
    res.writeHead(200).end('ok');
  });
  // Two attempts (now, then 0 s later), then the dead-letter queue.
  stack = await startStack({ webhooks: { allowLoopback: true, retrySchedule: '0', timeoutMs: 2_000 } });
  t = await stack.tenant();
  admin = await t.user('admin');
  secrets.push(admin.email, PASSWORD);
});

afterAll(async () => {
  await stack?.close();
  await servers.closeAll();
  output?.restore();
  coldStart.coldStart = coldBefore;
});

/** The lines logged under a response's X-Request-Id. */
function linesOf(res: { headers: Headers }) {
  const id = res.headers.get('x-request-id');
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return lines().filter((l) => l.correlation_id === id);
}

function completed(res: { status: number; headers: Headers }, route: string) {
  const line = linesOf(res).find((l) => l.message === 'request completed');
  expect(line, `no request completed line for ${route}`).toBeDefined();
  expect(line).toMatchObject({ route, status: res.status, level: res.status >= 500 ? 'ERROR' : 'INFO' });
  expect(typeof line!.duration_ms).toBe('number');
  return line!;
}

const withCookie = (c: string, headers: Record<string, string> = {}) => ({ headers: { Cookie: c, ...headers } });

describe('request lines and request ids', () => {
  it('a failed and a good sign-in: login lines, request completed, X-Request-Id = correlation id', async () => {
    const bad = await stack.call('POST', '/api/session', { body: { email: admin.email, password: 'not the password at all' } });
    expect(bad.status).toBe(401);
    secrets.push('not the password at all');
    expect(completed(bad, 'POST /api/session')).toMatchObject({ reason: 'unauthorized' });
    expect(linesOf(bad).find((l) => l.message === 'login failed')).toMatchObject({
      reason: 'bad_credentials',
      user_id: admin.id,
      tenant_id: t.id,
    });

    const good = await stack.call('POST', '/api/session', { body: { email: admin.email, password: PASSWORD } });
    expect(good.status).toBe(200);
    cookie = good.headers
      .getSetCookie()
      .find((c) => c.startsWith('__Host-tp_session='))!
      .split(';')[0]!;
    secrets.push(cookie.split('=')[1]!);
    completed(good, 'POST /api/session');
    expect(linesOf(good).find((l) => l.message === 'login succeeded')).toMatchObject({ user_id: admin.id, tenant_id: t.id });
  });

  it('tokens created and revoked; a token-authenticated request carries its tenant; 4xx lines carry a reason', async () => {
    const created = await stack.call('POST', '/api/tokens', {
      body: { name: 'log-check', scopes: ['candidates:read', 'candidates:write'] },
      ...withCookie(cookie),
    });
    expect(created.status).toBe(201);
    const token: string = created.body.data.token;
    secrets.push(token);
    expect(completed(created, 'POST /api/tokens')).toMatchObject({ tenant_id: t.id });
    expect(linesOf(created).find((l) => l.message === 'token created')).toMatchObject({
      token_id: created.body.data.id,
      scopes: ['candidates:read', 'candidates:write'],
      tenant_id: t.id,
    });

    const pii = {
      name: 'Ada Lovelace-Logcheck',
      email: 'ada.logcheck@example.org',
      phone: '+44 20 7946 0958',
      resume_url: 'https://cv.example.org/ada-logcheck.pdf',
    };
    secrets.push(...Object.values(pii));
    const cand = await stack.call('POST', '/api/v1/candidates', { token, body: pii });
    expect(cand.status).toBe(201);
    expect(completed(cand, 'POST /api/v1/candidates')).toMatchObject({ tenant_id: t.id });

    const missing = await stack.call('GET', '/api/v1/candidates/00000000-0000-4000-8000-000000000000', { token });
    expect(missing.status).toBe(404);
    expect(completed(missing, 'GET /api/v1/candidates/{id}')).toMatchObject({ reason: 'not_found', tenant_id: t.id });

    const invalid = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'x', email: 'ada.invalid-logcheck@' } });
    expect(invalid.status).toBe(400);
    secrets.push('ada.invalid-logcheck@');
    expect(completed(invalid, 'POST /api/v1/candidates')).toMatchObject({ reason: 'validation' });

    // A fresh token without pipeline:read (API Gateway caches a token's policy, so the authorizer
    // sees only a token's first route): its policy leaves the route out, 403.
    const readOnly = await t.token(['candidates:read']);
    secrets.push(readOnly);
    const scope = await stack.call('GET', '/api/v1/pipeline', { token: readOnly });
    expect(scope.status).toBe(403);
    expect(scope.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(logLines('authorizer denied').find((l) => l.reason === 'missing_scope')).toMatchObject({
      route: 'GET /api/v1/pipeline',
      tenant_id: t.id,
    });

    const revoked = await stack.call('DELETE', `/api/tokens/${created.body.data.id}`, withCookie(cookie));
    expect(revoked.status).toBe(200);
    expect(linesOf(revoked).find((l) => l.message === 'token revoked')).toMatchObject({ token_id: created.body.data.id });
  });

  it('authorizer refusals: a reason per case, and the session authorizer logs under the request id', async () => {
    const before = logLines('authorizer denied').length;
    const malformed = await stack.call('GET', '/api/v1/candidates', { token: 'tp_not-a-real-token' });
    expect(malformed.status).toBe(401);
    expect(malformed.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const denied = logLines('authorizer denied').slice(before);
    expect(denied.map((l) => l.reason)).toContain('malformed');
    expect(denied.find((l) => l.reason === 'malformed')).toMatchObject({ route: 'GET /api/v1/candidates' });

    const stale = await stack.call('GET', '/api/session', withCookie(`__Host-tp_session=${'A'.repeat(43)}`));
    expect(stale.status).toBe(401);
    const line = linesOf(stale).find((l) => l.message === 'authorizer denied');
    expect(line).toMatchObject({ route: 'GET /api/session' });
    expect(['unknown', 'missing']).toContain(line!.reason);
  });

  it("requests side by side: each one's request completed line names its own id, route and status", async () => {
    const token = await t.token(['candidates:read']);
    secrets.push(token);
    const calls = Array.from({ length: 12 }, (_, i) =>
      i % 2
        ? stack.call('GET', `/api/v1/candidates/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, { token })
        : stack.call('GET', '/api/v1/candidates?limit=1', { token }),
    );
    const answers = await Promise.all(calls);
    const ids = answers.map((a) => a.headers.get('x-request-id'));
    expect(new Set(ids).size).toBe(12);
    for (const [i, a] of answers.entries()) {
      const mine = logLines('request completed').filter((l) => l.correlation_id === ids[i]);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        status: a.status,
        tenant_id: t.id,
        route: i % 2 ? 'GET /api/v1/candidates/{id}' : 'GET /api/v1/candidates',
      });
    }
  });

  it('gateway answers carry X-Request-Id too (unknown route, missing credentials)', async () => {
    for (const res of [await stack.call('GET', '/api/v1/nope'), await stack.call('GET', '/api/v1/candidates')]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('a lockout: five failures from one address, the fifth starts it, the sixth is refused as locked', async () => {
    const user = await t.user('recruiter');
    secrets.push(user.email);
    const wrong = () => stack.call('POST', '/api/session', { body: { email: user.email, password: 'wrong wrong wrong' } });
    for (let i = 0; i < 4; i++) expect((await wrong()).status).toBe(401);
    expect(logLines('lockout started').filter((l) => l.user_id === user.id)).toHaveLength(0);
    const fifth = await wrong();
    expect(fifth.status).toBe(401);
    expect(linesOf(fifth).find((l) => l.message === 'lockout started')).toMatchObject({ user_id: user.id, tenant_id: t.id });
    const sixth = await wrong();
    expect(sixth.status).toBe(429);
    expect(completed(sixth, 'POST /api/session')).toMatchObject({ reason: 'rate_limited' });
    expect(linesOf(sixth).find((l) => l.message === 'login failed')).toMatchObject({ reason: 'locked' });
  });
});

describe('webhook lines', () => {
  it('created, updated, disabled (by a user and by the service), deleted; failed attempts, dead letters, fan-out', async () => {
    const create = async (path: string) => {
      const res = await stack.call('POST', '/api/webhooks', {
        body: { url: hookUrl(path), events: ['candidate.created'] },
        ...withCookie(cookie),
      });
      expect(res.status, res.text).toBe(201);
      secrets.push(res.body.webhook.secret, 'sig-in-query-logcheck');
      expect(linesOf(res).find((l) => l.message === 'webhook created')).toMatchObject({ webhook_id: res.body.webhook.id, tenant_id: t.id });
      return res.body.webhook.id as string;
    };
    const ok = await create('/ok?key=sig-in-query-logcheck');
    const fail = await create('/fail?key=sig-in-query-logcheck');
    const gone = await create('/gone?key=sig-in-query-logcheck');

    const token = await t.token(['candidates:write']);
    secrets.push(token);
    const cand = await stack.call('POST', '/api/v1/candidates', {
      token,
      body: { name: 'Grace Hopper-Logcheck', email: 'grace.logcheck@example.org' },
    });
    expect(cand.status).toBe(201);
    secrets.push('Grace Hopper-Logcheck', 'grace.logcheck@example.org');

    const dead = await until('a dead letter', () => logLines('delivery dead-lettered').find((l) => l.webhook_id === fail));
    expect(dead).toMatchObject({
      event_type: 'candidate.created',
      attempt: 2,
      response_status: 500,
      error: 'http_status',
      tenant_id: t.id,
    });
    expect(typeof dead.event_id).toBe('string');
    // The series of one event (the fan-out may also have found the earlier candidate's event).
    const failed = logLines('delivery failed').filter((l) => l.webhook_id === fail && l.event_id === dead.event_id);
    expect(failed.map((l) => l.attempt).sort()).toEqual([1, 2]);
    for (const l of failed) expect(l).toMatchObject({ level: 'INFO', response_status: 500, error: 'http_status', event_id: dead.event_id });
    expect(typeof failed[0]!.duration_ms).toBe('number');

    const disabled = await until('the 410 endpoint disabled', () => logLines('webhook disabled').find((l) => l.webhook_id === gone));
    expect(disabled).toMatchObject({ level: 'WARN', reason: 'receiver answered 410 Gone', tenant_id: t.id });
    expect(await until('a success', () => logLines('delivery succeeded').find((l) => l.webhook_id === ok))).toMatchObject({
      level: 'DEBUG',
      response_status: 200,
    });
    expect(logLines('events fanned out').some((l) => l.count >= 1)).toBe(true);

    const off = await stack.call('PATCH', `/api/webhooks/${ok}`, { body: { active: false }, ...withCookie(cookie) });
    expect(off.status).toBe(200);
    expect(linesOf(off).find((l) => l.message === 'webhook updated')).toMatchObject({ webhook_id: ok, active: false });
    expect(linesOf(off).find((l) => l.message === 'webhook disabled')).toMatchObject({ webhook_id: ok, reason: 'disabled by a user' });
    const del = await stack.call('DELETE', `/api/webhooks/${fail}`, withCookie(cookie));
    expect(del.status).toBe(200);
    expect(linesOf(del).find((l) => l.message === 'webhook deleted')).toMatchObject({ webhook_id: fail, tenant_id: t.id });
    expect(signatures.filter(Boolean).length).toBeGreaterThan(0);
  });
});

describe('metrics (EMF)', () => {
  it('every metric of the contract is emitted in namespace TalentPipeline', () => {
    for (const name of [
      'ColdStart',
      'ApiRequests',
      'LoginsFailed',
      'Lockouts',
      'DeliveriesSucceeded',
      'DeliveriesFailed',
      'DeliveryAttempt',
      'DeliveryLatency',
      'EndpointsDisabled',
      'EventsFannedOut',
    ]) {
      const found = metricLines(name);
      expect(found.length, `no EMF line for ${name}`).toBeGreaterThan(0);
      expect(found[0]!._aws.CloudWatchMetrics[0].Namespace).toBe('TalentPipeline');
    }
    const api = metricLines('ApiRequests').find((l) => l.route === 'GET /api/v1/candidates/{id}' && l.status_class === '4xx');
    expect(api).toBeDefined();
    expect(api!._aws.CloudWatchMetrics[0].Dimensions[0]).toEqual(expect.arrayContaining(['route', 'status_class']));
    const latency = metricLines('DeliveryLatency')[0]!;
    expect(latency._aws.CloudWatchMetrics[0].Metrics.find((m: { Name: string }) => m.Name === 'DeliveryLatency')).toMatchObject({
      Unit: 'Milliseconds',
    });
  });
});

describe('secrets and PII', () => {
  it('appear in no log line, EMF line or gateway log line', () => {
    const everything = [output.text(), ...stack.logs].join('\n');
    expect(secrets.length).toBeGreaterThan(12);
    for (const s of [...secrets, ...signatures.filter(Boolean)]) {
      expect(everything.includes(s), `leaked ${s.slice(0, 6)}…`).toBe(false);
    }
    // Every line of the service is structured: no stray text from a function.
    const service = lines().filter((l) => l.service === 'talent-pipeline' && l.message);
    expect(service.length).toBeGreaterThan(30);
  });
});
