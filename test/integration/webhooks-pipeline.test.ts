/**
 * The webhook pipeline end to end through the in-process local runtime: Bearer API -> table ->
 * stream poller -> fan-out -> local SQS -> delivery -> REAL HTTPS receivers on 127.0.0.1
 * (self-signed cert trusted through NODE_EXTRA_CA_CERTS). Every delivery's X-Service-Signature
 * and Standard Webhooks signature is verified on arrival; failures are recorded and asserted
 * empty. Scenarios use separate tenants so their events never mix.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

// Four attempts of retries after 0 s, then ~1 s each: 6 attempts in all.
const SCHEDULE = '0,1,1,1,1';
const MAX_ATTEMPTS = 6;
const TIMEOUT_MS = 500;

// ---- receivers ----------------------------------------------------------------------------

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  env: any;
  /** performance.now() when the request body had fully arrived. */
  at: number;
}
type Behaviour = (hit: Hit, req: IncomingMessage, res: ServerResponse) => void;

const tls = inject('tls');
const secrets = new Map<string, string>();
const signatureFailures: string[] = [];
const servers: https.Server[] = [];

function verify(hit: Hit): void {
  const secret = secrets.get(hit.path);
  if (!secret) return void signatureFailures.push(`${hit.path}: no secret known`);
  const expected = createHmac('sha256', secret).update(hit.body, 'utf8').digest('hex');
  const given = String(hit.headers['x-service-signature'] ?? '');
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
    signatureFailures.push(`${hit.path}: X-Service-Signature mismatch`);
  }
  try {
    new Webhook(secret).verify(hit.body, {
      'webhook-id': String(hit.headers['webhook-id']),
      'webhook-timestamp': String(hit.headers['webhook-timestamp']),
      'webhook-signature': String(hit.headers['webhook-signature']),
    });
  } catch (err) {
    signatureFailures.push(`${hit.path}: Standard Webhooks ${(err as Error).message}`);
  }
  if (hit.headers['x-service-event'] !== hit.env?.event) signatureFailures.push(`${hit.path}: X-Service-Event mismatch`);
  if (hit.headers['content-type'] !== 'application/json') signatureFailures.push(`${hit.path}: content-type`);
}

/** An HTTPS receiver; behaviour by path, default 200. `close` sends Connection: close on every answer. */
async function startReceiver(opts: { close?: boolean } = {}) {
  const behaviours = new Map<string, Behaviour>();
  const hits: Hit[] = [];
  const server = https.createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let env: unknown;
      try {
        env = JSON.parse(body);
      } catch {
        env = undefined;
      }
      const hit: Hit = { path: req.url!, headers: req.headers, body, env, at: performance.now() };
      hits.push(hit);
      verify(hit);
      if (opts.close) res.setHeader('Connection', 'close');
      const b = behaviours.get(hit.path);
      if (b) b(hit, req, res);
      else res.end('ok');
    });
  });
  server.on('tlsClientError', () => {});
  server.on('clientError', () => {});
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    hits,
    on: (path: string, b: Behaviour) => void behaviours.set(path, b),
    url: (path: string) => `https://127.0.0.1:${port}${path}`,
    at: (path: string) => hits.filter((h) => h.path === path),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

// ---- helpers ------------------------------------------------------------------------------

let stack: Stack;

async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

interface Workspace {
  tenant: TestTenant;
  token: string;
  session: (method: string, path: string, body?: unknown) => ReturnType<Stack['call']>;
  endpoint: (url: string, events?: string[]) => Promise<string>;
  detail: (id: string) => Promise<any>;
  candidate: (name: string, extra?: Record<string, unknown>) => Promise<{ id: string; respondedAt: number }>;
  move: (candidateId: string, stage: string) => Promise<any>;
}

async function workspace(): Promise<Workspace> {
  const tenant = await stack.tenant();
  const token = await tenant.token(['*']);
  const cookie = await stack.login((await tenant.user('admin')).email, PASSWORD);
  const session = (method: string, path: string, body?: unknown) =>
    stack.call(method, path, { headers: { Cookie: cookie }, ...(body !== undefined && { body }) });
  return {
    tenant,
    token,
    session,
    endpoint: async (url, events) => {
      const res = await session('POST', '/api/webhooks', { url, ...(events && { events }) });
      if (res.status !== 201) throw new Error(`create webhook: ${res.status} ${res.text}`);
      secrets.set(new URL(url).pathname, res.body.webhook.secret);
      return res.body.webhook.id as string;
    },
    detail: async (id) => {
      const res = await session('GET', `/api/webhooks/${id}`);
      if (res.status !== 200) throw new Error(`get webhook: ${res.status} ${res.text}`);
      return res.body;
    },
    candidate: async (name, extra = {}) => {
      const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name, ...extra } });
      const respondedAt = performance.now();
      if (res.status !== 201) throw new Error(`create candidate: ${res.status} ${res.text}`);
      return { id: res.body.data.id as string, respondedAt };
    },
    move: async (candidateId, stage) => {
      const res = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: candidateId, stage } });
      if (res.status !== 200) throw new Error(`move: ${res.status} ${res.text}`);
      return res.body.data;
    },
  };
}

const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Everything that reaches the dead-letter queue, read once by a background reader. */
const dlq: Array<{ body: any; reason: string | undefined }> = [];
let dlqRunning = true;
let dlqReader: Promise<void> | undefined;
const inDlq = (endpointId: string) => dlq.filter((m) => m.body?.endpointId === endpointId);

beforeAll(async () => {
  stack = await startStack({ webhooks: { retrySchedule: SCHEDULE, allowLoopback: true, timeoutMs: TIMEOUT_MS } });
  const { client, dlqUrl } = stack.pipeline!.queues;
  dlqReader = (async () => {
    while (dlqRunning) {
      try {
        const { Messages = [] } = await client.send(
          new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageAttributeNames: ['All'] }),
        );
        for (const m of Messages) dlq.push({ body: JSON.parse(m.Body!), reason: m.MessageAttributes?.reason?.StringValue });
      } catch {
        if (dlqRunning) await sleep(200);
      }
    }
  })();
});

afterAll(async () => {
  dlqRunning = false;
  await dlqReader;
  await stack?.close();
  for (const s of servers) {
    s.closeAllConnections();
    if (s.listening) await new Promise((r) => s.close(r));
  }
});

// ---- event flow ---------------------------------------------------------------------------

describe('events reach subscribed endpoints, correctly signed', () => {
  let rx: Receiver;
  let main: Workspace;
  let other: Workspace;
  let reqId: string;
  let cand: string;
  let otherCand: string;
  let created: { id: string; respondedAt: number };

  beforeAll(async () => {
    rx = await startReceiver();
    main = await workspace();
    other = await workspace();
    const { createRequisition } = await import('../../lib/store/requisitions');
    reqId = (await createRequisition(main.tenant.id, { title: 'Staff Engineer', status: 'open' })).id;
    await main.endpoint(rx.url('/all'));
    await main.endpoint(rx.url('/offers'), ['offer.sent']);
    const inactive = await main.endpoint(rx.url('/inactive'));
    expect((await main.session('PATCH', `/api/webhooks/${inactive}`, { active: false })).status).toBe(200);
    await other.endpoint(rx.url('/other'));

    created = await main.candidate('Ada Lovelace', { req_id: reqId, email: 'ada@example.com' });
    cand = created.id;
    otherCand = (await other.candidate('Other Tenant Person')).id;
    await other.move(otherCand, 'offer_sent');
    for (const stage of ['interviewed', 'offer_sent', 'offer_accepted', 'placed']) await main.move(cand, stage);
    // A move to the stage the candidate is already in changes nothing and emits nothing.
    const same = await main.move(cand, 'placed');
    expect(same.stage).toBe('placed');
    await until('all main events', () => rx.at('/all').length >= 8);
    await until('the other tenant events', () => rx.at('/other').length >= 3);
    await until('the offer.sent delivery', () => rx.at('/offers').length >= 1);
    await sleep(300); // let any stray extra delivery land before counting
  });

  it('candidate.created, stage changes, offers and the placement arrive with the spec envelope', () => {
    const hits = rx.at('/all');
    const types = hits.map((h) => h.env.event);
    expect([...types].sort()).toEqual(
      [
        'candidate.created',
        'candidate.stage_changed',
        'candidate.stage_changed',
        'candidate.stage_changed',
        'candidate.stage_changed',
        'offer.accepted',
        'offer.sent',
        'placement.created',
      ].sort(),
    );
    for (const h of hits) {
      expect(Object.keys(h.env).sort()).toEqual(['data', 'event', 'tenantSlug', 'timestamp']);
      expect(h.env.tenantSlug).toBe(main.tenant.slug);
      expect(h.env.timestamp).toMatch(isoMs);
      expect(h.headers['x-service-event']).toBe(h.env.event);
      expect(h.headers['webhook-id']).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(h.env.data.candidateId).toBe(cand);
    }
    expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(hits.length);

    const byType = (t: string) => hits.filter((h) => h.env.event === t).map((h) => h.env.data);
    expect(byType('candidate.created')[0]).toMatchObject({ candidateId: cand, name: 'Ada Lovelace', reqId, stage: 'applied' });
    const changes = byType('candidate.stage_changed');
    for (const d of changes) expect(Object.keys(d).sort()).toEqual(['candidateId', 'name', 'newStage', 'oldStage', 'reqId']);
    expect(changes.map((d) => `${d.oldStage}>${d.newStage}`).sort()).toEqual(
      ['applied>interviewed', 'interviewed>offer_sent', 'offer_sent>offer_accepted', 'offer_accepted>placed'].sort(),
    );
    for (const d of changes) expect(d).toMatchObject({ candidateId: cand, name: 'Ada Lovelace', reqId });
    expect(byType('offer.sent')[0]).toMatchObject({ candidateId: cand, name: 'Ada Lovelace', reqId });
    expect(byType('offer.accepted')[0]).toMatchObject({ candidateId: cand, name: 'Ada Lovelace', reqId });
    const placement = byType('placement.created')[0];
    expect(Object.keys(placement).sort()).toEqual(['candidateId', 'name', 'placedAt', 'placementId', 'reqId', 'reqTitle']);
    expect(placement).toMatchObject({ candidateId: cand, name: 'Ada Lovelace', reqId, reqTitle: 'Staff Engineer' });
    expect(placement.placementId).toMatch(/^[0-9a-f-]{36}$/);
    expect(placement.placementId).not.toBe(cand);
    expect(placement.placedAt).toMatch(isoMs);
  });

  it('a move to the same stage emits nothing', () => {
    const toPlaced = rx.at('/all').filter((h) => h.env.event === 'candidate.stage_changed' && h.env.data.newStage === 'placed');
    expect(toPlaced).toHaveLength(1);
    expect(rx.at('/all').filter((h) => h.env.event === 'placement.created')).toHaveLength(1);
  });

  it('an endpoint subscribed only to offer.sent gets only that', () => {
    expect(rx.at('/offers').map((h) => h.env.event)).toEqual(['offer.sent']);
    expect(rx.at('/offers')[0]!.env.data.candidateId).toBe(cand);
  });

  it('an inactive endpoint gets nothing', () => {
    expect(rx.at('/inactive')).toEqual([]);
  });

  it("another tenant's events never reach this tenant's endpoints, and vice versa", () => {
    for (const path of ['/all', '/offers']) {
      for (const h of rx.at(path)) {
        expect(h.env.tenantSlug).toBe(main.tenant.slug);
        expect(h.body).not.toContain(otherCand);
      }
    }
    const otherHits = rx.at('/other');
    expect(otherHits.map((h) => h.env.event).sort()).toEqual(['candidate.created', 'candidate.stage_changed', 'offer.sent']);
    for (const h of otherHits) {
      expect(h.env.tenantSlug).toBe(other.tenant.slug);
      expect(h.env.data.candidateId).toBe(otherCand);
    }
  });

  it('every delivery verified (both signatures) and is recorded as a success', async () => {
    expect(signatureFailures).toEqual([]);
    const list = (await main.session('GET', '/api/webhooks')).body.data;
    const all = list.find((w: any) => w.url === rx.url('/all'));
    const d = await main.detail(all.id);
    expect(d.webhook).toMatchObject({ active: true, failure_count: 0 });
    expect(d.webhook.last_triggered_at).toMatch(isoMs);
    expect(d.deliveries).toHaveLength(8);
    for (const x of d.deliveries) expect(x).toMatchObject({ success: true, response_status: 200, attempt: 1, dead_lettered: false });
  });
});

// ---- faults -------------------------------------------------------------------------------

describe('retries, dead letters, 410 and Retry-After', () => {
  // Fault receivers answer with Connection: close so every attempt is a fresh connection (a reset
  // on a pooled socket would be retried inside one attempt; that path is covered in webhook-send).
  let rx: Receiver;
  let flaky: Workspace;
  let flakyId: string;
  let flakyCands: string[];
  let doomed: Workspace;
  let doomedId: string;
  let doomedCand: string;
  let gone: Workspace;
  let goneId: string;
  let slow: Workspace;
  let slowId: string;
  const FAIL_FIRST = 2;
  /** All fault scenarios run at once; each waits at most until this deadline. */
  let deadline = 0;
  const left = () => Math.max(1_000, deadline - Date.now());

  beforeAll(async () => {
    rx = await startReceiver({ close: true });

    // 500 x FAIL_FIRST, then one timeout, then one reset, then 200 - counted per event (by body).
    const seen = new Map<string, number>();
    rx.on('/flaky', (hit, req, res) => {
      const key = `${hit.env.event}:${hit.env.data.candidateId}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (n <= FAIL_FIRST) return void res.writeHead(500).end('not yet');
      if (n === FAIL_FIRST + 1) return; // never answers: the sender times out
      if (n === FAIL_FIRST + 2) return void req.socket.destroy();
      res.end('finally');
    });
    rx.on('/doomed', (_hit, _req, res) => void res.writeHead(503).end('always down'));
    rx.on('/gone', (_hit, _req, res) => void res.writeHead(410).end('gone'));
    let slowCalls = 0;
    rx.on('/slow', (_hit, _req, res) => {
      if (++slowCalls === 1) return void res.writeHead(429, { 'Retry-After': '2' }).end('slow down');
      res.end('ok');
    });

    [flaky, doomed, gone, slow] = await Promise.all([workspace(), workspace(), workspace(), workspace()]);
    flakyId = await flaky.endpoint(rx.url('/flaky'), ['candidate.created']);
    doomedId = await doomed.endpoint(rx.url('/doomed'), ['candidate.created']);
    goneId = await gone.endpoint(rx.url('/gone'), ['candidate.created']);
    await gone.endpoint(rx.url('/gone-sentinel'), ['candidate.created']);
    slowId = await slow.endpoint(rx.url('/slow'), ['candidate.created']);

    // Start every scenario at once; the tests below wait for their own outcome.
    deadline = Date.now() + 15_000;
    flakyCands = [(await flaky.candidate('Flaky One')).id, (await flaky.candidate('Flaky Two')).id];
    doomedCand = (await doomed.candidate('Doomed')).id;
    await gone.candidate('Gone First');
    await slow.candidate('Slow');
  });

  /** Per flaky event: its hits, and whether it got its 200 or was (wrongly) given up on. */
  const flakyState = () =>
    flakyCands.map((cid) => {
      const hits = rx.at('/flaky').filter((h) => h.env.data.candidateId === cid);
      const eventId = hits[0]?.headers['webhook-id'];
      return { cid, hits, eventId, dlq: inDlq(flakyId).filter((m) => m.body.eventId === eventId) };
    });
  const ATTEMPTS_TO_SUCCESS = FAIL_FIRST + 3;
  const flakySettled = () =>
    until(
      'each flaky event delivered or dead-lettered',
      () => flakyState().every((e) => e.hits.length >= ATTEMPTS_TO_SUCCESS || e.dlq.length > 0),
      left(),
    );

  it('a failing receiver sees the same webhook-id and body bytes on every attempt, each freshly signed', async () => {
    await until('first failures recorded', () => rx.at('/flaky').length >= 2, left());
    expect((await flaky.detail(flakyId)).webhook.failure_count).toBeGreaterThanOrEqual(1);
    await flakySettled();
    const state = flakyState();
    expect(new Set(state.map((e) => e.eventId)).size).toBe(2);
    for (const e of state) {
      expect(e.hits.length, e.cid).toBeGreaterThanOrEqual(FAIL_FIRST + 2);
      expect(new Set(e.hits.map((h) => h.headers['webhook-id'])).size).toBe(1);
      expect(new Set(e.hits.map((h) => h.body)).size).toBe(1);
      expect(new Set(e.hits.map((h) => h.headers['webhook-signature'])).size).toBeGreaterThan(1); // per-attempt timestamp
    }
    expect(signatureFailures).toEqual([]);
  }, 35_000);

  it('500s, a timeout and a connection reset are each recorded as failed attempts (status 0 + error for the last two)', async () => {
    await flakySettled();
    const { deliveries } = await flaky.detail(flakyId);
    for (const e of flakyState()) {
      const records = deliveries
        .filter((d: any) => d.event_id === e.eventId)
        .sort((x: any, y: any) => Date.parse(x.created_at) - Date.parse(y.created_at));
      expect(records.length).toBeGreaterThanOrEqual(FAIL_FIRST + 2);
      expect(records.slice(0, FAIL_FIRST + 2).map((r: any) => r.response_status)).toEqual([500, 500, 0, 0]);
      expect(records[0]).toMatchObject({ success: false, response_body: 'not yet', error: null });
      expect(records[2].error).toBe(`timeout after ${TIMEOUT_MS} ms`);
      expect(records[2].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
      expect(records[3].error).toMatch(/^connection reset \(/);
      for (const r of records.slice(0, FAIL_FIRST + 2)) expect(r.next_attempt_at).toMatch(isoMs);
    }
  }, 35_000);

  it('the recovering receiver eventually gets every event and failure_count returns to 0', async () => {
    await flakySettled();
    for (const e of flakyState()) {
      expect(e.dlq, `${e.cid}: a recoverable event was dead-lettered after ${e.hits.length} attempts`).toEqual([]);
      expect(e.hits).toHaveLength(ATTEMPTS_TO_SUCCESS);
      // The scheduled ~1 s retries (±20%) separate attempts 2..5.
      for (let i = 2; i < e.hits.length; i++) expect(e.hits[i]!.at - e.hits[i - 1]!.at, `gap ${i}`).toBeGreaterThanOrEqual(750);
    }
    const d = await until(
      'failure_count back to 0',
      async () => {
        const x = await flaky.detail(flakyId);
        return x.webhook.failure_count === 0 && x.deliveries.filter((r: any) => r.success).length === 2 ? x : undefined;
      },
      left(),
    );
    expect(d.webhook.active).toBe(true);
    expect(d.deliveries).toHaveLength(10); // 5 attempts x 2 events: exactly the last 10
  }, 35_000);

  it('attempt numbers count up per event (1..5 then success) and the success has no next attempt', async () => {
    await flakySettled();
    const { deliveries } = await flaky.detail(flakyId);
    for (const e of flakyState()) {
      const records = deliveries
        .filter((d: any) => d.event_id === e.eventId)
        .sort((x: any, y: any) => Date.parse(x.created_at) - Date.parse(y.created_at));
      expect(records.map((r: any) => r.attempt)).toEqual([1, 2, 3, 4, 5]);
      expect(records.map((r: any) => r.success)).toEqual([false, false, false, false, true]);
      expect(records[4].next_attempt_at).toBeNull();
      expect(records.every((r: any) => r.event_type === 'candidate.created' && !r.dead_lettered)).toBe(true);
    }
  }, 35_000);

  it('a receiver that always fails ends in the DLQ after maxAttempts, the last attempt dead-lettered', async () => {
    await until(
      'the message in the DLQ',
      async () => inDlq(doomedId).length > 0 || (await doomed.detail(doomedId)).deliveries.some((r: any) => r.dead_lettered),
      left(),
    );
    // The attempt record is written before the DLQ send, and the DLQ reader long-polls: give it a moment.
    await until('the DLQ message', () => inDlq(doomedId).length > 0, 3_000).catch(() => undefined);
    const d = await doomed.detail(doomedId);
    const asc = [...d.deliveries].sort((x: any, y: any) => Date.parse(x.created_at) - Date.parse(y.created_at));
    expect(asc.map((r: any) => r.attempt)).toEqual(Array.from({ length: MAX_ATTEMPTS }, (_, i) => i + 1));
    expect(asc.every((r: any) => r.response_status === 503 && !r.success)).toBe(true);
    expect(asc.map((r: any) => r.dead_lettered)).toEqual([...Array(MAX_ATTEMPTS - 1).fill(false), true]);
    expect(asc.at(-1).next_attempt_at).toBeNull();
    expect(d.deliveries[0].attempt).toBe(MAX_ATTEMPTS); // newest first

    const messages = inDlq(doomedId);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.body).toMatchObject({ eventType: 'candidate.created', tenantId: doomed.tenant.id, endpointId: doomedId });
    expect(messages[0]!.body.eventId).toBe(asc[0].event_id);
    expect(JSON.parse(messages[0]!.body.body).data.candidateId).toBe(doomedCand);
    expect(messages[0]!.reason).toMatch(new RegExp(`${MAX_ATTEMPTS} attempts`));

    const hits = rx.at('/doomed');
    expect(hits).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(1);
    expect(d.webhook.failure_count).toBe(MAX_ATTEMPTS);
    expect(d.webhook.active).toBe(true); // far from the 5-day disable window
  }, 35_000);

  it('a 410 disables the endpoint and nothing more is attempted', async () => {
    const d = await until(
      'the endpoint disabled',
      async () => {
        const x = await gone.detail(goneId);
        return x.webhook.active === false ? x : undefined;
      },
      left(),
    );
    expect(d.webhook.disabled_reason).toMatch(/410/);
    expect(d.deliveries).toHaveLength(1);
    expect(d.deliveries[0]).toMatchObject({ response_status: 410, success: false, attempt: 1, dead_lettered: false, next_attempt_at: null });
    expect(rx.at('/gone')).toHaveLength(1);
    // Another event: the sentinel endpoint of the same tenant gets it, the disabled one does not.
    const second = (await gone.candidate('Gone Second')).id;
    await until('the sentinel got the second event', () => rx.at('/gone-sentinel').some((h) => h.env.data.candidateId === second), left());
    await sleep(300);
    expect(rx.at('/gone')).toHaveLength(1);
    expect((await gone.detail(goneId)).deliveries).toHaveLength(1);
    expect(inDlq(goneId)).toEqual([]);
    // Reactivating clears the reason.
    expect((await gone.session('PATCH', `/api/webhooks/${goneId}`, { active: true })).status).toBe(200);
    expect((await gone.detail(goneId)).webhook).toMatchObject({ active: true, disabled_reason: null, failure_count: 0 });
  });

  it('Retry-After is honoured: a 0 s retry slot waits the 2 s the receiver asked for', async () => {
    await until('the retry after Retry-After', () => rx.at('/slow').length >= 2, left());
    const [first, second] = rx.at('/slow') as [Hit, Hit];
    const gap = second.at - first.at;
    expect(gap).toBeGreaterThanOrEqual(1_900);
    expect(gap).toBeLessThan(6_000);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    const d = await until(
      'the success recorded',
      async () => {
        const x = await slow.detail(slowId);
        return x.deliveries.length === 2 ? x : undefined;
      },
      left(),
    );
    const [ok, throttled] = d.deliveries;
    expect(throttled).toMatchObject({ attempt: 1, response_status: 429, success: false });
    expect(Date.parse(throttled.next_attempt_at) - Date.parse(throttled.created_at)).toBeGreaterThanOrEqual(1_900);
    expect(ok).toMatchObject({ response_status: 200, success: true });
    // Control: without Retry-After, a 500 on the same 0 s slot was retried much sooner.
    const flakyHits = rx.at('/flaky').filter((h) => h.env.data.candidateId === flakyCands[0]);
    expect(flakyHits[1]!.at - flakyHits[0]!.at).toBeLessThan(gap - 500);
  });

  it('the retry after Retry-After is recorded as attempt 2', async () => {
    const d = await until(
      'both attempts recorded',
      async () => {
        const x = await slow.detail(slowId);
        return x.deliveries.length === 2 ? x : undefined;
      },
      left(),
    );
    expect(d.deliveries.map((r: any) => r.attempt)).toEqual([2, 1]);
  });
});

// ---- measurements -------------------------------------------------------------------------

describe('latency and throughput (printed, not asserted beyond delivery)', () => {
  it('measures event-to-delivery latency over 50 events and a 200-event burst', async () => {
    const rx = await startReceiver();
    const perf = await workspace();
    await perf.endpoint(rx.url('/perf'), ['candidate.created']);
    const arrival = new Map<string, number>();
    rx.on('/perf', (hit, _req, res) => {
      arrival.set(hit.env.data.candidateId, hit.at);
      res.end('ok');
    });

    // Latency: 50 events paced 100 ms apart (open loop), API response -> receiver arrival.
    const sent: Array<{ id: string; respondedAt: number }> = [];
    for (let i = 0; i < 50; i++) {
      sent.push(await perf.candidate(`Latency ${i}`));
      await sleep(100);
    }
    await until('50 latency deliveries', () => sent.every((c) => arrival.has(c.id)));
    const latencies = sent.map((c) => arrival.get(c.id)! - c.respondedAt);
    const sorted = [...latencies].sort((x, y) => x - y);

    // Throughput: 200 creates, 20 in flight at a time, then wait for all 200 deliveries.
    const burstStart = performance.now();
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < 200) {
          next++;
          ids.push((await perf.candidate(`Burst ${next}`)).id);
        }
      }),
    );
    const createdAll = performance.now();
    await until('200 burst deliveries', () => ids.every((id) => arrival.has(id)), 25_000);
    const times = ids.map((id) => arrival.get(id)!);
    const firstArrival = Math.min(...times);
    const lastArrival = Math.max(...times);
    const e2eS = (lastArrival - burstStart) / 1000;
    const rxS = (lastArrival - firstArrival) / 1000;

    console.log(
      [
        '[webhook measurements]',
        `latency over ${latencies.length} events, 100 ms apart (API response -> receiver): ` +
          `p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, ` +
          `min ${sorted[0]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
        `burst of 200 (20 concurrent creates): creates took ${((createdAll - burstStart) / 1000).toFixed(2)} s; ` +
          `last delivery ${e2eS.toFixed(2)} s after the first create = ${(200 / e2eS).toFixed(1)} deliveries/s end to end; ` +
          `first->last arrival ${rxS.toFixed(2)} s = ${(199 / rxS).toFixed(1)} deliveries/s at the receiver`,
      ].join('\n  '),
    );

    const burst = rx.at('/perf').filter((h) => ids.includes(h.env.data.candidateId));
    expect(new Set(burst.map((h) => h.headers['webhook-id'])).size).toBe(200);
    expect(signatureFailures).toEqual([]);
  }, 40_000);
});

describe('signatures across the whole file', () => {
  it('no delivery failed verification', () => {
    expect(signatureFailures).toEqual([]);
  });
});
