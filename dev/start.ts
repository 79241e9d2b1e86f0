/**
 * `npm start`: DynamoDB Local + the table + the demo workspace + the local API gateway.
 * Ctrl-C or SIGTERM stops everything, our Java process included, and so does the end of the
 * process that started us (a SIGTERM to `npm start` alone, whether npm passes it on or not).
 */
import './quiet-sdk';
import './untraced';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Jit, jitFromEnv, startDynamoDbLocal } from './dynamodb';
import { claimRuntime, clearRuntime, dataDir, dbPath, LOCAL_TABLE, writeRuntime } from './runtime';
import { RATE_LIMIT_ENV, rateLimitsFrom, SESSION_RATE_LIMITS } from '../lib/rate-limits';
import { ensureConsoleBuilt } from '../console/build';
import { type FilesAndMail, portFromEnv, startFilesAndMail } from './files-and-mail';
import { InvokeStore } from '@aws/lambda-invoke-store';

// Invocations run side by side here, as on Lambda's multi-concurrency runtime: with this set,
// Powertools keeps each one's log keys apart (dev/invocation.ts). The store is made now,
// before any function module loads.
process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '64';
await InvokeStore.getInstanceAsync();

const t0 = performance.now();
const since = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
const say = (line: string) => console.log(`[local] ${line}`);

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(2);
}
const host = process.env.HOST ?? '127.0.0.1';
const dynamodbPort = process.env.DYNAMODB_PORT ? Number(process.env.DYNAMODB_PORT) : undefined;
if (dynamodbPort !== undefined && (!Number.isInteger(dynamodbPort) || dynamodbPort < 1 || dynamodbPort > 65535)) {
  console.error(`DYNAMODB_PORT must be a port number, got "${process.env.DYNAMODB_PORT}"`);
  process.exit(2);
}

let jit: Jit;
try {
  // A server that may run for hours and take a 10,000-row import: the optimising JIT pays back.
  jit = jitFromEnv('full');
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}

/** Resolves when the port can be bound now, so a taken port ends npm start before Java starts. */
const portFree = (p: number, h: string) =>
  new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    probe.listen(p, h, () => probe.close(() => resolve(undefined)));
  });

let s3Port: number | undefined;
let sesPort: number | undefined;
try {
  s3Port = portFromEnv('S3_PORT');
  sesPort = portFromEnv('SES_PORT');
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}

for (const [name, p, h] of [
  ['PORT', port, host],
  ['DYNAMODB_PORT', dynamodbPort, '127.0.0.1'],
  ['S3_PORT', s3Port, '127.0.0.1'],
  ['SES_PORT', sesPort, '127.0.0.1'],
] as const) {
  if (p === undefined || p === 0) continue;
  const err = await portFree(p, h);
  if (err) {
    const why =
      err.code === 'EADDRINUSE'
        ? 'is already in use (another npm start, or another server?)'
        : `cannot be used (${err.code ?? err.message})`;
    console.error(`${name}=${p}: port ${p} on ${h} ${why}. Stop what holds it or set ${name} to another port; nothing was started.`);
    process.exit(1);
  }
}

const dir = dataDir();
mkdirSync(dbPath(dir), { recursive: true });
const already = claimRuntime(dir);
if (already) {
  console.error(`Another npm start (pid ${already.pid}) is using ${dir}; stop it or set DATA_DIR.`);
  process.exit(1);
}

let shuttingDown = false;
let ddb: Awaited<ReturnType<typeof startDynamoDbLocal>> | undefined;
let gateway: import('./gateway').LocalGateway | undefined;
let webhooks: import('./webhooks').WebhookPipeline | undefined;
let imports: import('./imports').ImportPipeline | undefined;
let filesAndMail: FilesAndMail | undefined;
async function shutdown(signal: string, code = 0) {
  if (shuttingDown) return;
  shuttingDown = true;
  say(`${signal}: stopping`);
  await gateway?.close();
  await imports?.stop();
  await webhooks?.stop();
  await filesAndMail?.stop();
  // Before DynamoDB Local is ready, process.exit below stops its Java (dev/dynamodb.ts).
  await ddb?.stop();
  clearRuntime(dir);
  say('stopped');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGHUP', () => void shutdown('SIGHUP'));
// A supervisor may signal only the pid it started: `sh -c` (npm's child when the script does not
// exec) dies of SIGTERM without passing it on, and a killed npm passes on nothing. Either way
// this process is re-parented, which it notices here and stops as if signalled.
const parentPid = process.ppid;
setInterval(() => {
  if (parentGone(parentPid)) void shutdown('parent process exited');
}, 250).unref();
// With the parent gone, a closed stdout must not crash the stop before Java is stopped.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

say(`Node ${process.version}, data directory ${dir}`);
// The console builds (when its sources changed) while DynamoDB Local starts; it never stops the API.
const consoleBuild = ensureConsoleBuilt();
// So do the local S3 and SES, which need no table: the seconds Java takes to start are otherwise
// idle here. They set their variables (lib/config.ts reads them) before any function loads, as
// before. A failure is met below, where an error stops everything started so far.
const filesAndMailStarted = startFilesAndMail(dir, { s3: s3Port, ses: sesPort }).then((f) => (filesAndMail = f));
filesAndMailStarted.catch(() => {});
say('starting DynamoDB Local (Java)…');
ddb = await startDynamoDbLocal({
  dbPath: dbPath(dir),
  port: dynamodbPort,
  jit,
}).catch((err: Error) => {
  clearRuntime(dir);
  console.error(err.message);
  process.exit(1);
});
if (shuttingDown) await new Promise(() => {}); // stopped while Java started: shutdown exits

try {
  say(`DynamoDB Local ready on ${ddb.endpoint} (pid ${ddb.pid}) after ${since()}`);
  // Loaded only now (the DynamoDB client of the SDK): a start refused above did not need it.
  const { ensureTable, localClient } = await import('./table');
  const created = await ensureTable(localClient(ddb.endpoint), LOCAL_TABLE);
  say(`table ${LOCAL_TABLE} ${created === 'created' ? 'created' : 'found'}`);
  process.env.TABLE_NAME = LOCAL_TABLE;
  process.env.DYNAMODB_ENDPOINT = ddb.endpoint;
  writeRuntime(dir, { pid: process.pid, javaPid: ddb.pid, dynamodbEndpoint: ddb.endpoint, tableName: LOCAL_TABLE });

  // The local S3 (objects in <DATA_DIR>/s3) and SES, started above.
  filesAndMail = await filesAndMailStarted;
  say(`local S3 ready on ${filesAndMail.s3.endpoint} (bucket ${filesAndMail.s3.bucket}), local SES on ${filesAndMail.ses.endpoint}`);

  // A table made by this start holds only what it writes next, all of it current data: the
  // upgrades of older data (a Scan of the whole table each) would find nothing in it.
  const olderData = created !== 'created';
  if (olderData) {
    const { backfillChangeIndex } = await import('./backfill');
    const backfilled = await backfillChangeIndex();
    if (backfilled) say(`added ${backfilled} older candidates to the updated_after feed (GSI4)`);
  }

  const { seedDemo } = await import('./seed');
  const demo = await seedDemo(dir);
  say(demo.created ? 'seeded the demo workspace "demo"' : 'demo workspace found');
  // After the seed, whose candidates are written as older data is (one insert each): each gets its person.
  const { backfillPeople } = await import('./backfill');
  const people = await backfillPeople();
  if (people) say(`gave ${people} candidates without a person their person`);
  if (olderData) {
    const { backfillGuards } = await import('./backfill');
    const folded = await backfillGuards();
    if (folded) say(`folded the duplicate guard items of ${folded} people into their person`);
    const { backfillOfferAwaiting, backfillOfferExpiry } = await import('./backfill-offers');
    const expiring = await backfillOfferExpiry();
    if (expiring) say(`gave ${expiring} sent offers their expiry`);
    const awaited = await backfillOfferAwaiting();
    if (awaited) say(`put ${awaited} offers pending approval on their approvers' lists`);
  }

  // Audit records of the four-copy layout (a data directory from before the intents): moved once.
  const { auditCli, migrateOldAuditCopies } = await import('../lib/domain/audit-migration');
  if (olderData) {
    // One Scan for the workspaces, which both upgrades go through.
    const [{ allTenantIds }, { shardUnshardedStats }] = await Promise.all([
      import('../lib/store/audit-migrate'),
      import('../lib/domain/stats-sharding'),
    ]);
    const ids = await allTenantIds();
    const migrated = await migrateOldAuditCopies(ids, () => {});
    if (migrated) say(`moved the audit log of ${migrated} workspaces to one item per record`);
    // Counters of a data directory from before their shards: spread from now on.
    const sharded = await shardUnshardedStats(ids);
    if (sharded) say(`gave the counters of ${sharded} workspaces their shards`);
  }
  // A first run's stream poller starts at the stream's end, as a new event source mapping does:
  // the intents of what was written before it (the demo's seed) are expanded here instead. So
  // are those of a data directory whose maintenance consumer kept a checkpoint of its own (it
  // had its own reader then), which may have been behind the one reader's.
  const ownMaintenanceCheckpoint = join(dir, 'stream-checkpoints-stuck.json');
  const firstRun = !existsSync(join(dir, 'stream-checkpoints.json')) || existsSync(ownMaintenanceCheckpoint);

  // The application form's key: a new one per run, so a form read before a restart is refused
  // as a forged one would be (deployed: a Secrets Manager value).
  process.env.FORM_TOKEN_SECRET ??= randomBytes(32).toString('base64url');
  // Local receivers live on 127.0.0.1; the deployed stack never allows loopback targets.
  process.env.WEBHOOK_ALLOW_LOOPBACK ??= 'true';
  const { startWebhookPipeline } = await import('./webhooks');
  webhooks = await startWebhookPipeline({
    checkpointFile: join(dir, 'stream-checkpoints.json'),
    // Pending retries and unsent deliveries survive a restart (dev/restore.ts).
    pendingFile: join(dir, 'pending-deliveries.json'),
    log: say,
  });
  say('webhook pipeline running (stream poller -> fan-out -> SQS -> delivery)');
  if (firstRun) {
    await auditCli('settle', undefined, () => {});
    rmSync(ownMaintenanceCheckpoint, { force: true });
  }
  const { startRetentionTimer } = await import('./retention');
  startRetentionTimer(say);
  const { startScreeningRejectionsTimer } = await import('./screening-rejections');
  startScreeningRejectionsTimer(say);
  const { startInterviewFollowUpTimer } = await import('./interview-follow-up');
  startInterviewFollowUpTimer(say);
  const { startOfferExpiryTimer } = await import('./offer-expiry');
  startOfferExpiryTimer(say);
  const { startFileWorker } = await import('./file-worker');
  startFileWorker(filesAndMail.s3, say);
  const { startUploadExpiryTimer } = await import('./upload-expiry');
  startUploadExpiryTimer(filesAndMail.s3, say);
  const { startImportPipeline } = await import('./imports');
  imports = await startImportPipeline({ sqs: webhooks.queues, log: say });
  say(`import worker running${imports.resumed ? ` (resumed ${imports.resumed} unfinished imports)` : ''}`);

  const built = await consoleBuild;
  if (built.status === 'failed') console.error(`[local] the console could not be built (the API runs anyway): ${built.error}`);
  else say(built.status === 'built' ? `console built in ${built.ms} ms` : 'console build is up to date');

  const { createGateway } = await import('./gateway');
  // AUTHORIZER_CACHE_TTL_SECONDS shortens the token cache for tests; unset, it is the deployed 60 s.
  const ttl = process.env.AUTHORIZER_CACHE_TTL_SECONDS;
  // The deployed per-token limits, unless RATE_LIMIT_* variables change them or RATE_LIMITS=off.
  const rateLimits = process.env.RATE_LIMITS === 'off' ? undefined : rateLimitsFrom((n) => process.env[n], RATE_LIMIT_ENV);
  const sessionRateLimits = rateLimits && SESSION_RATE_LIMITS;
  say(
    rateLimits
      ? `rate limits per token: ${rateLimits.ratePerSecond}/s, bursts of ${rateLimits.burst}, ${rateLimits.quotaPerDay || 'no'} quota per day; per member in the console: ${SESSION_RATE_LIMITS.ratePerSecond}/s, bursts of ${SESSION_RATE_LIMITS.burst}`
      : 'rate limits off (RATE_LIMITS=off)',
  );
  gateway = createGateway({
    log: (line) => console.log(line),
    rateLimits,
    sessionRateLimits,
    filesOrigin: new URL(filesAndMail.s3.endpoint).origin,
    ...(ttl !== undefined && /^\d+$/.test(ttl) && { authorizerCacheTtlSeconds: Number(ttl) }),
  });
  const url = await gateway.listen(port, host);
  // The links mail carries (the reminders' to the console, the confirmations' to the careers
  // pages): this runtime's own origin, known once it listens (PORT=0 picks the port then).
  process.env.CONSOLE_URL ??= url;
  // The console's page posts uploads straight to the bucket: its origin, and only it, may.
  await filesAndMail.s3.allowOrigin(url);
  writeRuntime(dir, {
    pid: process.pid,
    javaPid: ddb.pid,
    dynamodbEndpoint: ddb.endpoint,
    tableName: LOCAL_TABLE,
    url,
    sqsEndpoint: webhooks.queues.endpoint,
    queueUrl: webhooks.queues.queueUrl,
    dlqUrl: webhooks.queues.dlqUrl,
    s3Endpoint: filesAndMail.s3.endpoint,
    filesBucket: filesAndMail.s3.bucket,
    sesEndpoint: filesAndMail.ses.endpoint,
  });

  console.log(`
Talent Pipeline is running on Node ${process.version} (started in ${since()})
  Console        ${url}/${built.status === 'failed' ? '   (not built: see the error above)' : ''}
  API base URL   ${url}/api/v1
  OpenAPI        ${url}/api/v1/openapi.json
  Demo token     ${demo.token}   (full access, workspace "demo")
  Demo login     ${demo.login.email} / ${demo.login.password}   (workspace admin; sign in to the console with it)
  Sent mail      ${filesAndMail.ses.viewerUrl}   (local SES: read here, never delivered)
  Files (S3)     ${filesAndMail.s3.endpoint}/${filesAndMail.s3.bucket}   (local S3; objects in ${join(dir, 's3')})

Try:
  curl -s -H "Authorization: Bearer ${demo.token}" ${url}/api/v1/pipeline

Ctrl-C stops the API, DynamoDB Local and the local S3 and SES.
`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  await shutdown('error', 1);
}

/** True once the process that started this one has ended (we were re-parented). */
function parentGone(parent: number): boolean {
  try {
    // Linux: the live parent from /proc ("pid (comm) state ppid ..."); process.ppid never changes.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent;
  } catch {
    try {
      process.kill(parent, 0);
      return false;
    } catch {
      return true;
    }
  }
}
