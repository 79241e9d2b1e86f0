/**
 * `npm run invoke -- <function> <event.json>`: run one handler from functions/ with a sample
 * event against the local table (the running `npm start`, or DynamoDB Local on DATA_DIR) and
 * print its result. `{{DEMO_TOKEN}}` in an event is replaced by the local demo token.
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
if (raw.includes('{{DEMO_TOKEN}}')) {
  const tokenFile = join(dataDir(), 'demo-token');
  if (!existsSync(tokenFile)) {
    console.error('This event needs the demo token: run `npm start` once to create it.');
    process.exit(1);
  }
  raw = raw.replaceAll('{{DEMO_TOKEN}}', readFileSync(tokenFile, 'utf8').trim());
}
const event = JSON.parse(raw);

const local = await useLocalTable();
try {
  const { handler } = await import(`../functions/${name}`);
  const started = performance.now();
  const result = await handler(event, lambdaContext(name));
  console.log(JSON.stringify(result, null, 2));
  console.error(`${name} answered in ${(performance.now() - started).toFixed(1)} ms`);
} catch (err) {
  console.error(`${name} threw: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await local.stop();
}
