/**
 * `npm run invoke -- <function> <event.json> [--send]`: run one handler from functions/ with a
 * sample event against the local table (the running `npm start`, or DynamoDB Local on DATA_DIR)
 * and print its result. {{DEMO_TOKEN}}, {{DEMO_PASSWORD}}, {{DEMO_SESSION}} and {{DEMO_PERSON}} in an event are
 * filled from the demo workspace that `npm start` created in DATA_DIR.
 *
 * Nothing reaches a real receiver unless `--send` is given:
 * - webhook-fanout runs as a dry run: it enqueues into a throwaway queue of this process (never
 *   npm start's), and the messages it would have sent are printed;
 * - webhook-delivery refuses a message whose endpoint exists and is active;
 * - create-candidate and change-stage (their writes become webhook events through the table's
 *   stream, now or at the next npm start) refuse when the workspace has active endpoints.
 *
 * `npm run invoke -- --batch` runs many invocations in one process, one after another, as warm
 * invocations of one Lambda container would: each stdin line is a JSON array of the arguments
 * above, and each answer is one stdout line `{"code","stdout","stderr"}` with what that
 * invocation alone printed and the exit code it would have had. Starting Node and loading the
 * SDK once instead of per event is what makes the e2e test of every sample event affordable. The
 * queues are chosen once for the whole batch, so the fan-out's dry run (a throwaway queue of its
 * own) is refused there, and {{DEMO_SESSION}} is one session for the batch (see demoSession).
 */
import '../dev/quiet-sdk';
import '../dev/untraced';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { lambdaContext } from '../dev/events';
import { dataDir, useLocalTable } from '../dev/runtime';
import { routes } from '../lib/routes';

/** An invocation stopped before it could reach a real receiver. */
class Refused extends Error {}
/** A wrong command line or a missing file: the exit code says which (2 usage, 1 missing data). */
class Stop extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

const functionsDir = join(import.meta.dirname, '..', 'functions');
const available = readdirSync(functionsDir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => basename(f, '.ts'));
const usage = `Usage: npm run invoke -- <function> <event.json> [--send]\n       npm run invoke -- --batch   (JSON argument arrays on stdin)\nFunctions: ${available.join(', ')}`;

/**
 * Handlers whose writes the table's stream turns into webhook events: every API-token write
 * (candidates, stage moves, requisitions).
 */
const EVENT_SOURCES: string[] = routes.filter((r) => r.auth === 'token' && r.access === 'write').map((r) => r.handler);

type Queues = Awaited<ReturnType<typeof import('../dev/queue').startQueues>>;

/** The local queues the webhook functions need, pointed to by the environment that lib/config reads. */
async function throwawayQueues(): Promise<Queues> {
  const queues = await (await import('../dev/queue')).startQueues({ maxReceiveCount: 10, visibilityTimeoutS: 180 });
  process.env.SQS_ENDPOINT = queues.endpoint;
  process.env.WEBHOOK_QUEUE_URL = queues.queueUrl;
  process.env.WEBHOOK_DLQ_URL = queues.dlqUrl;
  return queues;
}

interface Call {
  name: string;
  raw: string;
  send: boolean;
  dryRun: boolean;
}

/** Parse one command line and read its event; throws Stop when it cannot run. */
function parseCall(args: string[]): Call {
  const send = args.includes('--send');
  const [name, eventPath] = args.filter((a) => a !== '--send');
  if (!name || !eventPath || !available.includes(name)) throw new Stop(usage, 2);
  if (!existsSync(eventPath)) throw new Stop(`No such event file: ${eventPath}`, 2);
  let raw = readFileSync(eventPath, 'utf8');
  if (raw.includes('{{DEMO_TOKEN}}')) raw = raw.replaceAll('{{DEMO_TOKEN}}', demoFile('demo-token'));
  if (raw.includes('{{DEMO_PASSWORD}}')) raw = raw.replaceAll('{{DEMO_PASSWORD}}', demoLogin().password);
  // A time the replay route accepts whenever the sample runs (at most 14 days back).
  raw = raw.replaceAll('{{HOURS_AGO_6}}', new Date(Date.now() - 6 * 3_600_000).toISOString());
  return { name, raw, send, dryRun: name === 'webhook-fanout' && !send };
}

function demoFile(name: string) {
  const file = join(dataDir(), name);
  if (!existsSync(file)) throw new Stop('This event needs the demo workspace: run `npm start` once to create it.', 1);
  return readFileSync(file, 'utf8').trim();
}
const demoLogin = () => JSON.parse(demoFile('demo-login.json')) as { email: string; password: string };

/**
 * A demo-admin session id: a fresh sign-in for each command; in a batch, one session for all the
 * invocations, signed in again only when one of them ended it (the logout sample) or it expired.
 * A sign-in costs a full-strength scrypt hash (~0.3 s of CPU), and most samples are session routes.
 */
let batchSession: string | undefined;
async function demoSession(): Promise<string> {
  if (batchSession) {
    const { getSession } = await import('../lib/store/sessions');
    const { sessionDigest, sessionState } = await import('../lib/auth/session');
    const record = await getSession(sessionDigest(batchSession));
    if (record && sessionState(record, Date.now()) === 'active') return batchSession;
  }
  const { login } = await import('../lib/domain/sessions');
  const { email, password } = demoLogin();
  const { sessionId } = await login(email, password, 'npm run invoke');
  if (inBatch) batchSession = sessionId;
  return sessionId;
}

/** The person of the demo's first candidate (their ids are random: npm start's backfill gives them). */
async function demoPerson(): Promise<string> {
  const { DEMO, demoCandidateId } = await import('../dev/demo-data');
  const { getCandidate } = await import('../lib/store/candidates');
  const personId = (await getCandidate(DEMO.tenantId, demoCandidateId(0)))?.person_id;
  if (typeof personId !== 'string') throw new Stop('This event needs the demo workspace: run `npm start` once to create it.', 1);
  return personId;
}

/** Run one parsed call; prints its result and returns the exit code. */
async function invoke(call: Call, dryRunQueues: Queues | undefined): Promise<number> {
  const { name, send } = call;
  let raw = call.raw;
  try {
    if (raw.includes('{{DEMO_SESSION}}')) raw = raw.replaceAll('{{DEMO_SESSION}}', await demoSession());
    if (raw.includes('{{DEMO_PERSON}}')) raw = raw.replaceAll('{{DEMO_PERSON}}', await demoPerson());
    const event = JSON.parse(raw);
    if (!send) await refuseRealDeliveries(name, event);
    const { handler } = await import(`../functions/${name}`);
    const started = performance.now();
    const result = await handler(event, lambdaContext(name));
    console.log(JSON.stringify(result, null, 2));
    console.error(`${name} answered in ${(performance.now() - started).toFixed(1)} ms`);
    if (dryRunQueues) await printDryRun(dryRunQueues);
    return 0;
  } catch (err) {
    if (err instanceof Refused || err instanceof Stop) console.error(err.message);
    else console.error(`${name} threw: ${(err as Error).message}`);
    return 1;
  }
}

/** Without --send: stop before anything could POST to a real receiver. */
async function refuseRealDeliveries(name: string, event: any) {
  const { getEndpoint, listEndpoints } = await import('../lib/store/webhook-endpoints');
  const refuse = (why: string) => {
    throw new Refused(`${why}\nNothing was written. Add --send to do it anyway.`);
  };
  if (EVENT_SOURCES.includes(name)) {
    const tenantId = event.requestContext?.authorizer?.tenantId as string | undefined;
    const active = tenantId ? (await listEndpoints(tenantId)).filter((e) => e.active).length : 0;
    if (active)
      refuse(
        `${name} writes a change that becomes webhook events, and this workspace has ${active} active webhook endpoint(s) that would receive them.`,
      );
  }
  if (name === 'webhook-delivery') {
    for (const r of event.Records ?? []) {
      const m = JSON.parse(r.body ?? '{}');
      if (m.tenantId && m.endpointId && (await getEndpoint(m.tenantId, m.endpointId))?.active) {
        refuse(`webhook-delivery would POST to the active endpoint ${m.endpointId}.`);
      }
    }
  }
}

/** The dry run's throwaway queue holds what the fan-out would have sent: show it. */
async function printDryRun(queues: Queues) {
  const { ReceiveMessageCommand } = await import('@aws-sdk/client-sqs');
  const lines: string[] = [];
  for (;;) {
    const { Messages = [] } = await queues.client.send(
      new ReceiveMessageCommand({ QueueUrl: queues.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 600 }),
    );
    if (!Messages.length) break;
    for (const m of Messages) {
      const d = JSON.parse(m.Body ?? '{}');
      lines.push(`  ${d.eventType} ${d.eventId} -> endpoint ${d.endpointId}`);
    }
  }
  console.error(`dry run: ${lines.length} deliveries would have been queued (none sent; add --send to queue them)`);
  for (const l of lines) console.error(l);
}

async function single(args: string[]) {
  let call: Call;
  try {
    call = parseCall(args);
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    console.error(err.message);
    process.exit(err.code);
  }
  const local = await useLocalTable();
  // The webhook functions need queues: a running npm start's, or in-process ones for this call
  // (always for a dry run, so that nothing reaches npm start's delivery poller).
  const queues = process.env.WEBHOOK_QUEUE_URL && !call.dryRun ? undefined : await throwawayQueues();
  try {
    process.exitCode = await invoke(call, call.dryRun ? queues : undefined);
  } finally {
    await queues?.stop();
    await local.stop();
  }
}

async function batch() {
  const out = process.stdout.write.bind(process.stdout);
  // What an invocation prints is captured for its answer line; stdout carries only answers.
  // Output between invocations (a handler's late log line) goes with the next one.
  const captured = { stdout: '', stderr: '' };
  const capture = (stream: 'stdout' | 'stderr') =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      captured[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      cb?.();
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture('stdout');
  process.stderr.write = capture('stderr');
  const local = await useLocalTable();
  // Chosen once: lib/config reads the queue URLs once per process.
  const queues = process.env.WEBHOOK_QUEUE_URL ? undefined : await throwawayQueues();
  try {
    for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
      if (!line.trim()) continue;
      let code: number;
      try {
        const args = JSON.parse(line);
        if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw new Stop(`Not a JSON array of strings: ${line}`, 2);
        const call = parseCall(args);
        if (call.dryRun) throw new Stop('The webhook-fanout dry run needs a queue of its own: run it alone, without --batch.', 2);
        code = await invoke(call, undefined);
      } catch (err) {
        console.error(err instanceof Stop ? err.message : `invalid line: ${(err as Error).message}`);
        code = err instanceof Stop ? err.code : 2;
      }
      out(`${JSON.stringify({ code, ...captured })}\n`);
      captured.stdout = '';
      captured.stderr = '';
    }
  } finally {
    await queues?.stop();
    await local.stop();
  }
}

const argv = process.argv.slice(2);
const inBatch = argv.length === 1 && argv[0] === '--batch';
if (inBatch) await batch();
else await single(argv);
