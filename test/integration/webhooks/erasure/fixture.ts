/**
 * Shared setup of the erasure race tests (test/integration/webhooks/erasure/*.test.ts): the real
 * pipeline in process (API -> table -> stream -> fan-out -> local SQS -> delivery -> HTTPS
 * receivers that echo what they get), with the test in control of the timing:
 * - receivers that hold their answer until the test releases it (a delivery in flight);
 * - DynamoDB calls the test pauses (a fan-out between its plan and its write, an idempotency
 *   record between the handler's answer and its save) or answers itself (a copy index that has
 *   not caught up), through the shared client's middleware;
 * - a full Scan of the table for the candidate's values after each race.
 * Each file calls `useErasureFixture()` at its top and gets its own stack and receivers: in the
 * shared graph this module loads once per worker, not once per file.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { scanTable } from '../../../helpers/scan';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../../../helpers/stack';
import { tlsServers } from '../../../helpers/tls-servers';
import { until as waitUntil } from '../../../helpers/until';
import { lastAttempts } from '../../../../lib/store/webhook-attempts';
import { ddbClient } from '../../../../lib/store/client';

export let stack: Stack;
const servers = tlsServers(inject('tls'));

/** Registers the file's set-up and tear-down: call it at the top of each test file, before its own hooks. */
export function useErasureFixture() {
  beforeAll(async () => {
    // An attempt may wait 15 s for its answer: longer than any hold here, so a held delivery is
    // a slow receiver, never a timeout.
    stack = await startStack({ webhooks: { allowLoopback: true, timeoutMs: 15_000, retrySchedule: '0,1,1' } });
  });
  afterAll(async () => {
    await stack?.close();
    await servers.closeAll();
  });
}

export const until = <T>(what: string, probe: () => T | Promise<T>, timeoutMs = 20_000) => waitUntil(what, probe, timeoutMs, 25);

// ---- people whose data must leave ---------------------------------------------------------

export interface Person {
  name: string;
  email: string;
  phone: string;
  /** What must not survive anywhere, compared case-insensitively (search tokens are lower case). */
  needles: string[];
}

/** A candidate's data, unique to this call: no other test's items can hold it. */
export function person(): Person {
  const tag = randomUUID().replace(/-/g, '').slice(0, 10);
  const first = `Zephyrine${tag}`;
  const last = `Quillfeather${tag}`;
  const email = `z.${tag}@erasure.example.org`;
  const phone = `+44 7700 9${tag.replace(/\D/g, '').padEnd(5, '7').slice(0, 5)}`;
  return { name: `${first} ${last}`, email, phone, needles: [first, last, email] };
}

/** Every item holding any of the needles: its kind (type, or `idempotency`) and key. */
export async function holders(...people: Person[]): Promise<{ kind: string; PK: string; SK: string }[]> {
  const needles = people.flatMap((p) => p.needles).map((n) => n.toLowerCase());
  const found: { kind: string; PK: string; SK: string }[] = [];
  for (const item of await scanTable({ TableName: stack.tableName })) {
    const text = JSON.stringify(item).toLowerCase();
    if (!needles.some((n) => text.includes(n))) continue;
    const pk = String(item.PK);
    found.push({ kind: pk.endsWith('#IDEM') ? 'idempotency' : String(item.type ?? pk), PK: pk, SK: String(item.SK) });
  }
  return found;
}

// ---- receivers that hold their answers ----------------------------------------------------

export interface Hit {
  path: string;
  body: string;
  env: any;
  webhookId: string;
}

/**
 * An HTTPS receiver that echoes each body back (so the delivery log would hold a copy). While a
 * path is held, its requests wait for `release(path)`.
 */
export async function startReceiver() {
  const hits: Hit[] = [];
  const held = new Map<string, { res: ServerResponse; body: string }[]>();
  const holding = new Set<string>();
  const server = await servers.start((req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const body = raw.toString('utf8');
    let env: unknown;
    try {
      env = JSON.parse(body);
    } catch {
      env = undefined;
    }
    const path = req.url!;
    hits.push({ path, body, env, webhookId: String(req.headers['webhook-id']) });
    if (holding.has(path)) {
      if (!held.has(path)) held.set(path, []);
      held.get(path)!.push({ res, body });
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
  });
  return {
    url: (path: string) => server.url(path),
    at: (path: string) => hits.filter((h) => h.path === path),
    hold: (path: string) => void holding.add(path),
    /** Answer every held request of `path` (with its echo) and stop holding it. */
    release(path: string) {
      holding.delete(path);
      for (const { res, body } of held.get(path) ?? []) res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
      held.delete(path);
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

// ---- workspaces ---------------------------------------------------------------------------

export interface Workspace {
  tenant: TestTenant;
  token: string;
  session: (method: string, path: string, body?: unknown) => ReturnType<Stack['call']>;
  /** An endpoint for `url`, subscribed to `events` (all by default). */
  endpoint: (url: string, events?: string[]) => Promise<string>;
  create: (p: Person, headers?: Record<string, string>) => Promise<string>;
  erase: (id: string) => Promise<{ status: number; body: any; text: string }>;
  /** The endpoint's delivery log, newest first (the store's read, no request). */
  attempts: (webhookId: string) => Promise<import('../../../../lib/model').DeliveryRecord[]>;
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
      return res.body.webhook.id as string;
    },
    create: async (p, headers = {}) => {
      const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: p.name, email: p.email }, headers });
      if (res.status !== 201) throw new Error(`create candidate: ${res.status} ${res.text}`);
      return res.body.data.id as string;
    },
    erase: (id) => stack.call('POST', `/api/v1/candidates/${id}/erase`, { token }),
    attempts: (webhookId) => lastAttempts(tenant.id, webhookId, 100),
  };
}

/** The events of candidate `id` a receiver got on `path`, of `type`. */
export const hitsOf = (rx: Receiver, path: string, id: string, type = 'candidate.created') =>
  rx.at(path).filter((h) => h.env?.event === type && h.env?.data?.candidateId === id);

// ---- DynamoDB calls under the test's control ----------------------------------------------

type Args = { input: Record<string, unknown> };

/**
 * Hold the first DynamoDB call `matches` picks (by command name and input, marshalled or not)
 * until `release()`. `reached` resolves when it is held, `done` when it has been sent.
 */
export async function pauseCall(matches: (command: string, input: string) => boolean) {
  const name = `pause-${randomUUID()}`;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const reachedP = new Promise<void>((r) => (reached = r));
  let done!: () => void;
  const doneP = new Promise<void>((r) => (done = r));
  let taken = false;
  ddbClient.middlewareStack.add(
    (next, ctx) => async (args) => {
      if (taken || !matches(String(ctx.commandName), JSON.stringify((args as Args).input))) return next(args);
      taken = true;
      reached();
      await gate;
      try {
        return await next(args);
      } finally {
        done();
      }
    },
    { step: 'initialize', name },
  );
  return {
    reached: reachedP,
    done: doneP,
    release: () => release(),
    remove: () => ddbClient.middlewareStack.remove(name),
  };
}

/**
 * A copy index (GSI2's `COPIES#` partitions) that has not caught up yet: its Queries answer no
 * items while `run` runs. Nothing else is touched.
 */
export async function withCopyIndexBehind<T>(run: () => Promise<T>): Promise<T> {
  const name = `lagging-${randomUUID()}`;
  ddbClient.middlewareStack.add(
    (next, ctx) => async (args) => {
      const input = (args as Args).input;
      if (ctx.commandName !== 'QueryCommand' || input.IndexName !== 'GSI2' || !JSON.stringify(input).includes('#COPIES#'))
        return next(args);
      return { output: { Items: [], Count: 0, ScannedCount: 0, $metadata: {} }, response: {} } as never;
    },
    { step: 'initialize', name },
  );
  try {
    return await run();
  } finally {
    ddbClient.middlewareStack.remove(name);
  }
}
