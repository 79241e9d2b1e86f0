/**
 * `npm run invoke -- <function> <event.json> [--send]`: run one handler from functions/ with a
 * sample event against the local table (the running `npm start`, or DynamoDB Local on DATA_DIR)
 * and print its result. {{DEMO_TOKEN}}, {{DEMO_PASSWORD}} and {{DEMO_SESSION}} in an event are
 * filled from the demo workspace that `npm start` created in DATA_DIR.
 *
 * Nothing reaches a real receiver unless `--send` is given:
 * - webhook-fanout runs as a dry run: it enqueues into a throwaway queue of this process (never
 *   npm start's), and the messages it would have sent are printed;
 * - webhook-delivery refuses a message whose endpoint exists and is active;
 * - create-candidate and change-stage (their writes become webhook events through the table's
 *   stream, now or at the next npm start) refuse when the workspace has active endpoints.
 */
import '../dev/quiet-sdk';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { lambdaContext } from '../dev/events';
import { dataDir, useLocalTable } from '../dev/runtime';
import { routes } from '../lib/routes';

/** An invocation stopped before it could reach a real receiver. */
class Refused extends Error {}

const functionsDir = join(import.meta.dirname, '..', 'functions');
const available = readdirSync(functionsDir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => basename(f, '.ts'));

const args = process.argv.slice(2);
const send = args.includes('--send');
const [name, eventPath] = args.filter((a) => a !== '--send');
if (!name || !eventPath || !available.includes(name)) {
  console.error(`Usage: npm run invoke -- <function> <event.json> [--send]\nFunctions: ${available.join(', ')}`);
  process.exit(2);
}
if (!existsSync(eventPath)) {
  console.error(`No such event file: ${eventPath}`);
  process.exit(2);
}
let raw = readFileSync(eventPath, 'utf8');
const demoFile = (name: string) => {
  const file = join(dataDir(), name);
  if (!existsSync(file)) {
    console.error('This event needs the demo workspace: run `npm start` once to create it.');
    process.exit(1);
  }
  return readFileSync(file, 'utf8').trim();
};
if (raw.includes('{{DEMO_TOKEN}}')) raw = raw.replaceAll('{{DEMO_TOKEN}}', demoFile('demo-token'));
const demoLogin = () => JSON.parse(demoFile('demo-login.json')) as { email: string; password: string };
if (raw.includes('{{DEMO_PASSWORD}}')) raw = raw.replaceAll('{{DEMO_PASSWORD}}', demoLogin().password);
// A time the replay route accepts whenever the sample runs (at most 14 days back).
raw = raw.replaceAll('{{HOURS_AGO_6}}', new Date(Date.now() - 6 * 3_600_000).toISOString());
/**
 * Handlers whose writes the table's stream turns into webhook events: every API-token write
 * (candidates, stage moves, requisitions).
 */
const EVENT_SOURCES: string[] = routes.filter((r) => r.auth === 'token' && r.access === 'write').map((r) => r.handler);
const dryRun = name === 'webhook-fanout' && !send;
const local = await useLocalTable();
// The webhook functions need queues: a running npm start's, or in-process ones for this call
// (always for a dry run, so that nothing reaches npm start's delivery poller).
const queues =
  process.env.WEBHOOK_QUEUE_URL && !dryRun
    ? undefined
    : await (await import('../dev/queue')).startQueues({ maxReceiveCount: 10, visibilityTimeoutS: 180 });
if (queues) {
  process.env.SQS_ENDPOINT = queues.endpoint;
  process.env.WEBHOOK_QUEUE_URL = queues.queueUrl;
  process.env.WEBHOOK_DLQ_URL = queues.dlqUrl;
}
try {
  if (raw.includes('{{DEMO_SESSION}}')) {
    const { login } = await import('../lib/domain/sessions');
    const { email, password } = demoLogin();
    raw = raw.replaceAll('{{DEMO_SESSION}}', (await login(email, password, 'npm run invoke')).sessionId);
  }
  const event = JSON.parse(raw);
  if (!send) await refuseRealDeliveries(event);
  const { handler } = await import(`../functions/${name}`);
  const started = performance.now();
  const result = await handler(event, lambdaContext(name));
  console.log(JSON.stringify(result, null, 2));
  console.error(`${name} answered in ${(performance.now() - started).toFixed(1)} ms`);
  if (dryRun) await printDryRun();
} catch (err) {
  if (err instanceof Refused) console.error(err.message);
  else console.error(`${name} threw: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await queues?.stop();
  await local.stop();
}

/** Without --send: stop before anything could POST to a real receiver. */
async function refuseRealDeliveries(event: any) {
  const { getEndpoint, listEndpoints } = await import('../lib/store/webhook-endpoints');
  const refuse = (why: string) => {
    throw new Refused(`${why}\nNothing was written. Add --send to do it anyway.`);
  };
  if (EVENT_SOURCES.includes(name!)) {
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
async function printDryRun() {
  const { ReceiveMessageCommand } = await import('@aws-sdk/client-sqs');
  const lines: string[] = [];
  for (;;) {
    const { Messages = [] } = await queues!.client.send(
      new ReceiveMessageCommand({ QueueUrl: queues!.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 600 }),
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
