/**
 * First setup file of the in-process tiers (vitest.config.ts), run before each test file: the
 * file's own table, and the settings a function checks at cold start. lib/ reads every setting at
 * each use (lib/config.ts), so a test file imports lib/ statically, at its top, and what it sets
 * later (`startStack({ webhooks, files })`, `useLocalS3`) is what the handlers use; `startStack`
 * then makes this table on the worker's DynamoDB Local (test/helpers/stack.ts). The one setting
 * still checked as its module loads and not given here is MAIL_FROM (lib/email/send.ts: set, it
 * starts the invitation pipeline, dev/webhooks.ts): a file that sends mail sets it, then imports
 * what sends, with `await import(...)`.
 */
import { randomUUID } from 'node:crypto';
import { v7 } from 'uuid';
import { dynamodbEndpoint } from './dynamodb-endpoint';

// The worker's environment as it started, put back before each file: in the shared integration
// project one worker runs many files in one process, and what a file set (a queue started by
// `startStack({ webhooks })`, MAIL_FROM, ORIGIN_VERIFY, RATE_LIMITS) must not reach the next.
const START = Symbol.for('talent-pipeline.test.start-env');
const started = ((globalThis as { [START]?: Record<string, string | undefined> })[START] ??= { ...process.env });
for (const k of Object.keys(process.env)) if (!(k in started)) delete process.env[k];
Object.assign(process.env, started);

// uuid's v7 never stamps an ID earlier than the newest it has stamped (lib/ids.ts): an earlier
// file of the worker that set the clock ahead (vi.setSystemTime) would leave every later ID in the
// future, outside the time ranges queries read. Say so here rather than in an unrelated test.
const stamped = Number.parseInt(v7().replaceAll('-', '').slice(0, 12), 16);
if (stamped > Date.now() + 1_000) {
  throw new Error(`an earlier file of this worker set the clock ahead: new IDs carry ${new Date(stamped).toISOString()}`);
}

process.env.TABLE_NAME = `test-${randomUUID()}`;
process.env.DYNAMODB_ENDPOINT = dynamodbEndpoint();
// Queues that refuse every connection, until `startStack({ webhooks })` puts the local ones in
// their place (before any module that queues loads): deployed, every function that queues is given
// its queues and reads them at cold start, so a stack without webhooks must still load the resend
// and replay functions to answer their refusals. Without SQS_ENDPOINT a send would go to AWS.
process.env.WEBHOOK_QUEUE_URL = 'http://127.0.0.1:9/000000000000/no-webhook-queue';
process.env.WEBHOOK_DLQ_URL = 'http://127.0.0.1:9/000000000000/no-webhook-dlq';
process.env.SQS_ENDPOINT = 'http://127.0.0.1:9';
// The application form's key, as the stack gives the public job reads and the application.
process.env.FORM_TOKEN_SECRET ??= randomUUID();
// The settings every file function is deployed with: a file route checks FILES_BUCKET as it loads
// (lib/files/storage.ts), and would answer 502 where the deployed route refuses with a 4xx (the
// route-table sweeps call it). No local S3 runs (one per sweep file would cost its start): the
// endpoint is a port nothing listens on, so only a call that reaches the bucket fails, and nothing
// leaves the machine. A file's own local S3 (`useLocalS3`, `startStack({ files })`) replaces both.
process.env.FILES_BUCKET = 'no-local-s3';
process.env.S3_ENDPOINT = 'http://127.0.0.1:9';
