/**
 * `npm run invoke -- <function> <event.json>`: run one handler from functions/ with a sample
 * event against the local table (the running `npm start`, or DynamoDB Local on DATA_DIR) and
 * print its result. {{DEMO_TOKEN}}, {{DEMO_PASSWORD}} and {{DEMO_SESSION}} in an event are
 * filled from the demo workspace that `npm start` created in DATA_DIR.
 */
import './local/quiet-sdk';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { lambdaContext } from './local/events';
import { dataDir, useLocalTable } from './local/runtime';

const functionsDir = join(import.meta.dirname, '..', 'functions');
const available = readdirSync(functionsDir).filter((f) => f.endsWith('.ts')).map((f) => basename(f, '.ts'));

const [name, eventPath] = process.argv.slice(2);
if (!name || !eventPath || !available.includes(name)) {
  console.error(`Usage: npm run invoke -- <function> <event.json>\nFunctions: ${available.join(', ')}`);
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
const local = await useLocalTable();
// The webhook functions need queues: a running npm start's, or in-process ones for this call.
const queues = process.env.WEBHOOK_QUEUE_URL
  ? undefined
  : await (await import('./local/queue')).startQueues({ maxReceiveCount: 10, visibilityTimeoutS: 180 });
if (queues) {
  process.env.SQS_ENDPOINT = queues.endpoint;
  process.env.WEBHOOK_QUEUE_URL = queues.queueUrl;
  process.env.WEBHOOK_DLQ_URL = queues.dlqUrl;
}
try {
  if (raw.includes('{{DEMO_SESSION}}')) {
    const { login } = await import('../lib/domain/identity');
    const { email, password } = demoLogin();
    raw = raw.replaceAll('{{DEMO_SESSION}}', (await login(email, password, 'npm run invoke')).sessionId);
  }
  const event = JSON.parse(raw);
  const { handler } = await import(`../functions/${name}`);
  const started = performance.now();
  const result = await handler(event, lambdaContext(name));
  console.log(JSON.stringify(result, null, 2));
  console.error(`${name} answered in ${(performance.now() - started).toFixed(1)} ms`);
} catch (err) {
  console.error(`${name} threw: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await queues?.stop();
  await local.stop();
}
