/**
 * Shared setup of the webhook pipeline tests (test/integration/webhooks/pipeline/*.test.ts): the
 * pipeline end to end through the in-process local runtime, Bearer API -> table -> stream poller
 * -> fan-out -> local SQS -> delivery -> REAL HTTPS receivers on 127.0.0.1 (self-signed cert
 * trusted through NODE_EXTRA_CA_CERTS). Every delivery's X-Service-Signature and Standard Webhooks
 * signature is verified on arrival; failures are recorded, and each file ends with
 * `signatureChecks()`, which asserts there were none. Scenarios use separate tenants so their
 * events never mix. Each test file calls `usePipelineFixture()` at its top and gets its own stack,
 * receivers, DLQ reader and signature record (this module loads once per worker in the shared graph).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { until as waitUntil } from '../../../helpers/until';
import { tlsServers } from '../../../helpers/tls-servers';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../../../helpers/stack';

// Four attempts of retries after 0 s, then ~1 s each: 6 attempts in all.
export const SCHEDULE = '0,1,1,1,1';
export const MAX_ATTEMPTS = 6;
export const TIMEOUT_MS = 500;

// ---- receivers ----------------------------------------------------------------------------

export interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  env: any;
  /** performance.now() when the request body had fully arrived. */
  at: number;
}
export type Behaviour = (hit: Hit, req: IncomingMessage, res: ServerResponse) => void;

export const tls = inject('tls');
export const secrets = new Map<string, string>();
export const signatureFailures: string[] = [];
/** How many deliveries `verify` checked: a file whose receivers got nothing proves nothing. */
export let verified = 0;
const servers = tlsServers(tls);

export function verify(hit: Hit): void {
  verified++;
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
export async function startReceiver(opts: { close?: boolean } = {}) {
  const behaviours = new Map<string, Behaviour>();
  const hits: Hit[] = [];
  const server = await servers.start((req, res, raw) => {
    const body = raw.toString('utf8');
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
  return {
    hits,
    on: (path: string, b: Behaviour) => void behaviours.set(path, b),
    url: (path: string) => server.url(path),
    at: (path: string) => hits.filter((h) => h.path === path),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

// ---- helpers ------------------------------------------------------------------------------

export let stack: Stack;

/** Pipeline waits: 15 s unless told. */
export const until = <T>(what: string, probe: () => T | Promise<T>, timeoutMs = 15_000) => waitUntil(what, probe, timeoutMs, 25);

export interface Workspace {
  tenant: TestTenant;
  token: string;
  session: (method: string, path: string, body?: unknown) => ReturnType<Stack['call']>;
  endpoint: (url: string, events?: string[]) => Promise<string>;
  detail: (id: string) => Promise<any>;
  candidate: (name: string, extra?: Record<string, unknown>) => Promise<{ id: string; respondedAt: number }>;
  move: (candidateId: string, stage: string) => Promise<any>;
}

export async function workspace(): Promise<Workspace> {
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

export const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Everything that reaches the dead-letter queue, read once by a background reader. */
const dlq: Array<{ body: any; reason: string | undefined }> = [];
let dlqRunning = true;
let dlqReader: Promise<void> | undefined;
export const inDlq = (endpointId: string) => dlq.filter((m) => m.body?.endpointId === endpointId);

/** Registers the file's set-up and tear-down: call it at the top of each test file, before its own hooks. */
export function usePipelineFixture() {
  beforeAll(async () => {
    secrets.clear();
    signatureFailures.length = 0;
    verified = 0;
    dlq.length = 0;
    dlqRunning = true;
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
    await servers.closeAll();
  });
}

/** The check each file ends with: no delivery it caused failed verification. */
export function signatureChecks() {
  describe('signatures across the whole file', () => {
    it('no delivery failed verification', () => {
      expect(verified).toBeGreaterThan(0);
      expect(signatureFailures).toEqual([]);
    });
  });
}
