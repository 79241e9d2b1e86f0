/**
 * Integration harness: a fresh table on the shared DynamoDB Local, the real handlers behind
 * the local gateway on an ephemeral port, and helpers to make tenants and tokens.
 * Call `startStack()` in beforeAll; the file's table name and endpoint are set before it loads
 * (test/helpers/table-env.ts), so it imports lib/ at its top.
 */
import { dynamodbEndpoint } from './dynamodb-endpoint';
import { eventsFromRecord } from './lambda-records';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { cheapHash } from './cheap-hash';
import { ensureTable, localClient } from '../../dev/table';
import type { Role, Scope } from '../../lib/model';
import { matchPath, routes, type Route } from '../../lib/routes';
import { ErrorBody } from '../../lib/schemas';
import type { WebhookEvent } from '../../lib/webhooks/events';
import { openApiContract, type OpenApiContract } from './openapi-contract';
import packedOpenApi from '../../lib/openapi.generated.packed';
import { createTenant } from '../../lib/store/tenants';
import { createToken } from '../../lib/store/tokens';
import { createUser } from '../../lib/store/users';
import { ddbClient } from '../../lib/store/client';
import { startStreamPoller } from '../../dev/stream';
import { createGateway } from '../../dev/gateway';

export interface TestTenant {
  id: string;
  slug: string;
  token(scopes?: Scope[]): Promise<string>;
  /** A user of this tenant; password is `PASSWORD`. */
  user(role?: Role, email?: string): Promise<{ id: string; email: string }>;
}

export const PASSWORD = 'correct horse battery staple';

export interface Stack {
  url: string;
  tableName: string;
  logs: string[];
  /** The webhook pipeline, when started with `webhooks`. */
  pipeline?: import('../../dev/webhooks').WebhookPipeline;
  /** The local S3 and the file worker it drives, when started with `files`. */
  files?: { s3: import('../../dev/s3').LocalS3; directory: string; idle(): Promise<void> };
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  /** Hold an answer to its route's schemas and to the served OpenAPI document, as `call` does (test/helpers/api.ts). */
  check(method: string, pathAndQuery: string, status: number, body: unknown): void;
  tenant(slug?: string): Promise<TestTenant>;
  /** Log in; returns the Cookie header value to send. */
  login(email: string, password: string): Promise<string>;
  close(): Promise<void>;
}

export interface StackOptions {
  authorizerCacheTtlSeconds?: number;
  /** The local gateway's clock for its authorizer cache (dev/gateway.ts): a test moves it past the TTL. */
  now?: () => number;
  /** Per-token rate limits in the local gateway; off unless given (test/integration/rate-limits.test.ts). */
  rateLimits?: import('../../lib/rate-limits').RateLimits;
  /** Per-member rate limits on cookie routes in the local gateway; off unless given. */
  sessionRateLimits?: import('../../lib/rate-limits').RateLimits;
  /**
   * Run the webhook pipeline too (stream poller -> fan-out -> local SQS -> delivery), with
   * these delivery settings (the same environment variables the functions read).
   */
  webhooks?: { retrySchedule?: string; allowLoopback?: boolean; timeoutMs?: number; disableAfterMs?: number };
  /** Run the import queue and its worker (dev/imports.ts), on the webhook pipeline's SQS when it runs. */
  imports?: boolean;
  /**
   * Give the table a stream (always with `webhooks`; `collectEvents` needs it). Off otherwise:
   * every stream of the worker's DynamoDB Local slows all its requests (dev/table.ts), and a
   * worker makes a table per test file.
   */
  stream?: boolean;
  /**
   * Run a local S3 (objects in a temporary directory) and the file worker its events drive, as
   * `npm start` does (dev/file-worker.ts); sets FILES_BUCKET and S3_ENDPOINT for the functions.
   */
  files?: boolean;
}

/**
 * Every answer an integration test receives is held to its route's schemas: a success must parse
 * with the route's response schema, and any error status must be `{ error, code, field? }` with a
 * code from ERROR_CODES. Then openapi-contract.ts holds it to the OpenAPI document the openapi function serves (ajv). A handler
 * that drifts from its schema fails whichever test first calls it.
 */
function checkContract(method: string, pathAndQuery: string, status: number, body: unknown) {
  const path = pathAndQuery.split('?')[0]!;
  const route = (routes as readonly Route[]).find((r) => r.method === method && matchPath(r.path, path));
  if (!route) return;
  // HTML pages (the careers site) are checked by their own tests, success and 404 alike.
  if (route.html) {
    if (body !== undefined)
      throw new Error(
        `${method} ${route.path} answered ${status} with JSON, not a page: ${pathAndQuery.slice(0, 300)} ${JSON.stringify(body).slice(0, 200)}`,
      );
    return;
  }
  if (status === route.status) {
    const result = route.response.safeParse(body);
    if (!result.success)
      throw new Error(`${method} ${route.path} answered ${status} off its response schema: ${JSON.stringify(result.error.issues[0])}`);
  } else if (status >= 400) {
    const result = ErrorBody.safeParse(body);
    if (!result.success)
      throw new Error(`${method} ${route.path} answered ${status} without an { error, code } body: ${JSON.stringify(body)}`);
    // Optional in the schema (the spec's bodies are { error } alone), always sent by this API.
    if (result.data.code === undefined)
      throw new Error(`${method} ${route.path} answered ${status} without a code: ${JSON.stringify(body)}`);
  }
}

/**
 * The contract of the document the openapi function serves, unpacked as it unpacks it
 * (functions/openapi.ts adds only `servers`): fetching it through the gateway cost every file the
 * serialising and parsing of the whole document. openapi.test.ts and openapi-complete.test.ts fetch
 * the served one. One per module graph: where files share one (the `integration` project), an
 * operation's schemas are compiled once per worker, not once per file that calls it. The document
 * is built into lib/ and the validators are pure functions of it, so what one file compiled answers
 * the same for the next.
 */
let contractOfGraph: OpenApiContract | undefined;
const servedContract = () =>
  (contractOfGraph ??= openApiContract(JSON.parse(gunzipSync(Buffer.from(packedOpenApi, 'base64')).toString('utf8'))));

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  // The file's table, named before the file loaded (test/helpers/table-env.ts): lib/ was loaded with it.
  const tableName = process.env.TABLE_NAME;
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!tableName?.startsWith('test-') || endpoint !== dynamodbEndpoint())
    throw new Error('no table named for this file: run it in a project with test/helpers/table-env.ts as its first setup file');
  await ensureTable(localClient(endpoint), tableName, { stream: opts.stream ?? opts.webhooks !== undefined });
  const w = opts.webhooks;
  if (w?.retrySchedule !== undefined) process.env.WEBHOOK_RETRY_SCHEDULE = w.retrySchedule;
  if (w?.allowLoopback !== undefined) process.env.WEBHOOK_ALLOW_LOOPBACK = String(w.allowLoopback);
  if (w?.timeoutMs !== undefined) process.env.WEBHOOK_TIMEOUT_MS = String(w.timeoutMs);
  if (w?.disableAfterMs !== undefined) process.env.WEBHOOK_DISABLE_AFTER_MS = String(w.disableAfterMs);
  const logs: string[] = [];
  const pipeline = w ? await (await import('../../dev/webhooks')).startWebhookPipeline({ log: (l) => logs.push(l) }) : undefined;
  const imports = opts.imports
    ? await (await import('../../dev/imports')).startImportPipeline({ sqs: pipeline?.queues, log: (l) => logs.push(l) })
    : undefined;
  const files = opts.files ? await startFiles(logs) : undefined;
  const passwordHash = cheapHash(PASSWORD);
  const gateway = createGateway({
    log: (l) => logs.push(l),
    authorizerCacheTtlSeconds: opts.authorizerCacheTtlSeconds,
    sessionRateLimits: opts.sessionRateLimits,
    rateLimits: opts.rateLimits,
    now: opts.now,
  });
  const url = await gateway.listen(0);
  const contract = servedContract();

  const stack: Stack = {
    url,
    tableName,
    logs,
    async call(method, path, { token, body, rawBody, headers = {} } = {}) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          ...(token && { Authorization: `Bearer ${token}` }),
          ...(body !== undefined && { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: rawBody ?? (body !== undefined ? JSON.stringify(body) : undefined),
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      stack.check(method, path, res.status, parsed);
      return { status: res.status, body: parsed, text, headers: res.headers };
    },
    check(method, pathAndQuery, status, body) {
      checkContract(method, pathAndQuery, status, body);
      contract.check(method, pathAndQuery, status, body);
    },
    async tenant(slug = `t-${randomUUID().slice(0, 8)}`) {
      const t = await createTenant(slug, `Tenant ${slug}`);
      return {
        id: t.id,
        slug: t.slug,
        token: async (scopes: Scope[] = ['*']) => (await createToken(t, 'test', scopes)).token,
        user: async (role = 'admin', email = `${role}-${randomUUID().slice(0, 8)}@${slug}.example.com`) => {
          const u = await createUser(t.id, email, passwordHash, role);
          return { id: u.id, email: u.email };
        },
      };
    },
    async login(email, password) {
      const res = await stack.call('POST', '/api/session', { body: { email, password } });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
      const cookie = res.headers.getSetCookie().find((c: string) => c.startsWith('__Host-tp_session='));
      if (!cookie) throw new Error('login set no session cookie');
      return cookie.split(';')[0]!;
    },
    pipeline,
    files: files && { s3: files.s3, directory: files.directory, idle: files.worker.idle },
    close: async () => {
      await gateway.close();
      await files?.worker.idle();
      await files?.s3.stop();
      if (files) rmSync(files.directory, { recursive: true, force: true });
      await imports?.stop();
      await pipeline?.stop();
    },
  };
  return stack;
}

async function startFiles(logs: string[]) {
  const directory = mkdtempSync(join(tmpdir(), 'tp-s3-'));
  const s3 = await (await import('../../dev/s3')).startLocalS3({ directory });
  process.env.S3_ENDPOINT = s3.endpoint;
  process.env.FILES_BUCKET = s3.bucket;
  const worker = (await import('../../dev/file-worker')).startFileWorker(s3, (l) => logs.push(l));
  return { s3, directory, worker };
}

/**
 * From now on, push the name of every DynamoDB command the handlers send into `into` (while
 * `when()` holds): the call-count tests' view of the shared client. The authorizer shares that
 * client, so a stack that counts starts with COUNTING_STACK: its token cache outlives the file,
 * and a count never includes an authorizer call because the file ran past the deployed 60 s.
 */
export const COUNTING_STACK: StackOptions = { authorizerCacheTtlSeconds: 3600 };

export async function recordDynamoDbCommands(into: string[], when: () => boolean = () => true): Promise<void> {
  // The client outlives the file in the shared integration project: an earlier file's recorders
  // (named by its table, test/helpers/table-env.ts) go before this file's is added.
  const table = process.env.TABLE_NAME!;
  const earlier = recorders.filter((n) => !n.startsWith(`${table} `));
  for (const n of earlier) ddbClient.middlewareStack.remove(n);
  const name = `${table} record ${recorders.length}`;
  recorders = [...recorders.filter((n) => !earlier.includes(n)), name];
  ddbClient.middlewareStack.add(
    (next, context) => (args) => {
      if (when()) into.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name },
  );
}
let recorders: string[] = [];

/**
 * A stream poller on the test table that pushes into `into` the webhook events every record
 * yields, as the fan-out would see them. `stop()` it in afterAll. The table needs a stream:
 * `startStack({ stream: true })`.
 */
export async function collectEvents(tableName: string, endpoint: string, into: WebhookEvent[]): Promise<{ stop(): Promise<void> }> {
  const poller = startStreamPoller({
    endpoint,
    tableName,
    intervalMs: 50,
    timeoutMs: 60_000,
    handler: async (e) => {
      for (const r of e.Records) into.push(...eventsFromRecord(r));
    },
  });
  // Writes made before the poller has passed over the stream's old records would be drained
  // with them, never collected.
  await poller.ready;
  return poller;
}
