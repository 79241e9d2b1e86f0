/**
 * Shared setup of the webhook operations tests (test/integration/webhooks/ops/*.test.ts):
 * the local gateway and the local webhook pipeline (stream poller -> fan-out -> local SQS ->
 * delivery), against a real HTTPS receiver on 127.0.0.1 that can be taken down and brought back.
 * Everything the process writes is captured (the WARN line and EMF metric checks, and the leak
 * check each file ends with, `secretChecks`). Each test file calls `useOpsFixture()` at its top and
 * gets its own stack, receiver and capture (this module loads once per worker in the shared graph),
 * and creates every endpoint (and so every secret) its checks look for.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
export { until } from '../../../helpers/until';
import { captureOutput, type CapturedOutput } from '../../../helpers/capture';
import { tlsServers, type TestServer } from '../../../helpers/tls-servers';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../../../helpers/stack';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- output capture (WARN line, EMF metric, leak check) -----------------------------------

export const captured: string[] = [];
let output: CapturedOutput | undefined;

// ---- receiver that can go down and come back on the same port ------------------------------

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const servers = tlsServers(inject('tls'));
export const received: Received[] = [];
let receiver: TestServer | undefined;
/**
 * While down, the receiver drops every connection as a dead host's network would, without
 * answering. It keeps its port: closed and listened on again, the port could be taken by another
 * process in between.
 */
let down = false;
/** How long the receiver waits before answering 200 (see `setSlowMs`). */
let slowMs = 0;
/** Makes the receiver answer 200 after `ms` (0: at once). */
export const setSlowMs = (ms: number) => void (slowMs = ms);

/** Starts the receiver, or brings it back after `receiverDown`. */
export async function receiverUp() {
  down = false;
  receiver ??= await servers.start(async (req, res, body) => {
    if (down) return void req.socket.destroy();
    const path = req.url!;
    received.push({ path, headers: req.headers, body: body.toString('utf8') });
    if (path.startsWith('/gone')) return void res.writeHead(410).end('gone');
    if (path.startsWith('/fail')) return void res.writeHead(500).end('receiver broke');
    if (path.startsWith('/redirect')) return void res.writeHead(302, { location: 'https://example.com/' }).end();
    if (slowMs) await sleep(slowMs);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
}
export async function receiverDown() {
  down = true;
}
export const hookUrl = (path: string) => receiver!.url(path);
export const at = (path: string) => received.filter((r) => r.path === path);

// ---- stack ----------------------------------------------------------------------------------

export let stack: Stack;
export let a: TestTenant;
export let b: TestTenant;
export let cookieA: string;
export let cookieB: string;
export let cookieMember: string;
export let tokenA: string;

/** Registers the file's set-up and tear-down: call it at the top of each test file, before its own hooks. */
export function useOpsFixture() {
  beforeAll(async () => {
    captured.length = 0;
    received.length = 0;
    allSecrets.length = 0;
    // The previous file's receiver was closed with it.
    receiver = undefined;
    slowMs = 0;
    output = captureOutput({ echo: true, into: captured });
    await receiverUp();
    // Two attempts (now, then 0 s later), then the dead-letter queue.
    stack = await startStack({ webhooks: { allowLoopback: true, retrySchedule: '0', timeoutMs: 2_000 } });
    a = await stack.tenant();
    b = await stack.tenant();
    cookieA = await stack.login((await a.user('admin')).email, PASSWORD);
    cookieMember = await stack.login((await a.user('recruiter')).email, PASSWORD);
    cookieB = await stack.login((await b.user('admin')).email, PASSWORD);
    tokenA = await a.token(['*']);
  });

  afterAll(async () => {
    await stack?.close();
    if (receiver) await receiverDown();
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
export const M = (method: string, path: string, opts?: CallOpts) => as(cookieMember)(method, path, opts);

/** Every secret this file's endpoints were given (created or rotated): the leak check looks for each. */
export const allSecrets: string[] = [];

export async function create(body: Record<string, unknown>, call = A): Promise<{ id: string; secret: string }> {
  const res = await call('POST', '/api/webhooks', { body });
  expect(res.status, res.text).toBe(201);
  allSecrets.push(res.body.webhook.secret);
  return res.body.webhook;
}

export async function createCandidate(name: string) {
  const res = await stack.call('POST', '/api/v1/candidates', { token: tokenA, body: { name } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}

const verifiers = (secret: string) => [new StandardWebhook(secret), new SvixWebhook(secret)];
export function verifiesWith(secret: string, r: Received): boolean[] {
  const h = {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  };
  return verifiers(secret).map((v) => {
    try {
      v.verify(r.body, h);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The leak check each file ends with: none of the secrets its endpoints got (at least
 * `minSecrets`), nor any `whsec_` string, appears in anything the process printed or in the
 * gateway logs.
 */
export function secretChecks(opts: { minSecrets: number }) {
  describe('secrets', () => {
    it('never appear in captured output', async () => {
      expect(allSecrets.length).toBeGreaterThanOrEqual(opts.minSecrets);
      const out = [...captured, ...stack.logs].join('\n');
      expect(out).not.toMatch(/whsec_/);
      for (const s of allSecrets) {
        const raw = s.slice('whsec_'.length);
        expect(out).not.toContain(raw);
        // Nor the key bytes as hex.
        expect(out).not.toContain(Buffer.from(raw, 'base64').toString('hex'));
      }
    });
  });
}
