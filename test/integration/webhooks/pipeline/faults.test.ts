/**
 * The webhook pipeline end to end through the local runtime, to real HTTPS receivers
 * (test/integration/webhooks/pipeline/fixture.ts). This file: retries (500s, a timeout, a
 * connection reset), dead letters, 410 and Retry-After.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  inDlq,
  isoMs,
  MAX_ATTEMPTS,
  signatureChecks,
  signatureFailures,
  startReceiver,
  TIMEOUT_MS,
  until,
  workspace,
  type Hit,
  type Receiver,
  type Workspace,
  usePipelineFixture,
} from './fixture';

usePipelineFixture();

describe('retries, dead letters, 410 and Retry-After', () => {
  // Fault receivers answer with Connection: close so every attempt is a fresh connection (a reset
  // on a pooled socket would be retried inside one attempt; that path is covered in webhooks/send.test.ts).
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

    // Start every scenario at once; the tests below wait for their own outcome. The budget starts
    // once the last scenario has started: on a loaded machine the creates alone took most of it,
    // and the tests after the first were left a second each.
    flakyCands = [(await flaky.candidate('Flaky One')).id, (await flaky.candidate('Flaky Two')).id];
    doomedCand = (await doomed.candidate('Doomed')).id;
    await gone.candidate('Gone First');
    await slow.candidate('Slow');
    deadline = Date.now() + 15_000;
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
    // The receiver sees an attempt before the delivery records its failure: wait for the record.
    const failing = await until(
      'a failure counted',
      async () => ((await flaky.detail(flakyId)).webhook.failure_count >= 1 ? true : undefined),
      left(),
    );
    expect(failing).toBe(true);
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
    expect(d.deliveries[0]).toMatchObject({
      response_status: 410,
      success: false,
      attempt: 1,
      dead_lettered: false,
      next_attempt_at: null,
    });
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
    // Load can only delay the retry, so its arrival bounds the wait from below; the record
    // bounds it from above: the retry was scheduled for the 2 s asked, not a later slot.
    expect(gap).toBeGreaterThanOrEqual(1_900);
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
    const scheduled = Date.parse(throttled.next_attempt_at) - Date.parse(throttled.created_at);
    expect(scheduled).toBeGreaterThanOrEqual(1_900);
    expect(scheduled).toBeLessThan(3_000);
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

signatureChecks();
