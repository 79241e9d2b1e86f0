/**
 * Shared setup of the webhook management tests (test/integration/webhooks/api/*.test.ts): session
 * routes under /api/webhooks through the local gateway, the test operation delivering to a REAL
 * local HTTPS receiver (self-signed cert from global setup, trusted through NODE_EXTRA_CA_CERTS)
 * that verifies both signatures. Each test file calls `useWebhookApiFixture()` at its top and gets
 * its own stack, receiver and capture, and starts with no secrets or deliveries recorded.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { captureOutput, type CapturedOutput } from '../../../helpers/capture';
import { useLogLevel } from '../../../helpers/log-level';
import { tlsServers, type TestServer } from '../../../helpers/tls-servers';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../../../helpers/stack';

// ---- output capture (secret leak check) ---------------------------------------------------

export const captured: string[] = [];
let output: CapturedOutput | undefined;

// ---- receiver -----------------------------------------------------------------------------

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  serviceOk: boolean;
  standardOk: boolean;
}

const servers = tlsServers(inject('tls'));
/** Secrets by receiver path: each endpoint under test gets its own path. */
export const secrets = new Map<string, string>();
export const received: Received[] = [];
export let receiver: TestServer;
export let counter = 0;

export function verifyBoth(path: string, headers: IncomingHttpHeaders, body: Buffer) {
  const secret = secrets.get(path);
  if (!secret) return { serviceOk: false, standardOk: false };
  const expected = createHmac('sha256', secret).update(body).digest('hex');
  const given = String(headers['x-service-signature'] ?? '');
  const serviceOk = given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
  let standardOk = false;
  try {
    new Webhook(secret).verify(body.toString('utf8'), {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    standardOk = true;
  } catch {
    standardOk = false;
  }
  return { serviceOk, standardOk };
}

export async function startReceiver() {
  receiver = await servers.start((req, res, body) => {
    const path = req.url!;
    received.push({ path, headers: req.headers, body: body.toString('utf8'), ...verifyBoth(path, req.headers, body) });
    if (path.startsWith('/fail')) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver broke');
    if (path.startsWith('/count')) return void res.end(`n=${++counter}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok from receiver');
  });
}

export const hookUrl = (path: string) => receiver.url(path);

// ---- stack --------------------------------------------------------------------------------

export let stack: Stack;
export let a: TestTenant;
export let b: TestTenant;
export let cookieA: string;
export let cookieB: string;
export const allSecrets: string[] = [];

/** Registers the file's set-up and tear-down: call it at the top of each test file, before its own hooks. */
export function useWebhookApiFixture() {
  // Everything the handlers log, so the leak check below sees it all.
  useLogLevel('DEBUG');
  beforeAll(async () => {
    captured.length = 0;
    received.length = 0;
    allSecrets.length = 0;
    secrets.clear();
    counter = 0;
    output = captureOutput({ echo: true, into: captured });
    await startReceiver();
    stack = await startStack({ webhooks: { allowLoopback: true, retrySchedule: '0', timeoutMs: 2_000 } });
    a = await stack.tenant();
    b = await stack.tenant();
    cookieA = await stack.login((await a.user('admin')).email, PASSWORD);
    cookieB = await stack.login((await b.user('admin')).email, PASSWORD);
  });

  afterAll(async () => {
    await stack?.close();
    await servers.closeAll();
    output?.restore();
  });
}

export type CallOpts = { body?: unknown; headers?: Record<string, string> };
export const as =
  (cookie: string) =>
  (method: string, path: string, opts: CallOpts = {}) =>
    stack.call(method, path, { ...opts, headers: { Cookie: cookie, ...opts.headers } });
export const A = (method: string, path: string, opts?: CallOpts) => as(cookieA)(method, path, opts);
export const B = (method: string, path: string, opts?: CallOpts) => as(cookieB)(method, path, opts);

export async function create(body: Record<string, unknown>, call = A) {
  const res = await call('POST', '/api/webhooks', { body });
  expect(res.status, res.text).toBe(201);
  allSecrets.push(res.body.webhook.secret);
  const url = new URL(res.body.webhook.url);
  if (url.port === String(receiver.port)) secrets.set(url.pathname, res.body.webhook.secret);
  return res.body.webhook as { id: string; url: string; secret: string; events: string[]; active: boolean; created_at: string };
}

export const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The leak check each file ends with: no secret its endpoints got appears in any answer or in
 * anything the handlers printed, and every delivery its receiver got verified.
 */
export function secretChecks(opts: { minSecrets: number; deliveries: boolean }) {
  describe('secrets', () => {
    it('never appear in any GET response, in captured stdout/stderr or in the gateway logs', async () => {
      expect(allSecrets.length).toBeGreaterThanOrEqual(opts.minSecrets);
      const texts: string[] = [];
      for (const cookie of [cookieA, cookieB]) {
        const list = await as(cookie)('GET', '/api/webhooks');
        texts.push(list.text);
        for (const w of list.body.data) texts.push((await as(cookie)('GET', `/api/webhooks/${w.id}`)).text);
      }
      expect(texts.length).toBeGreaterThan(opts.minSecrets);
      const logs = [...captured, ...stack.logs].join('\n');
      expect(stack.logs.length).toBeGreaterThan(0);
      for (const s of allSecrets) {
        const raw = s.slice('whsec_'.length);
        for (const t of texts) expect(t).not.toContain(raw);
        expect(logs).not.toContain(raw);
        // Nor any derived form: the key bytes as hex.
        expect(logs).not.toContain(Buffer.from(raw, 'base64').toString('hex'));
      }
      for (const t of texts) expect(t).not.toMatch(/whsec_/);
      expect(logs).not.toMatch(/whsec_/);
    });

    if (opts.deliveries)
      it('every delivery the receiver got verified with its endpoint secret', () => {
        expect(received.length).toBeGreaterThan(0);
        const bad = received.filter((r) => !r.serviceOk || !r.standardOk).map((r) => r.path);
        expect(bad).toEqual([]);
      });
  });
}
