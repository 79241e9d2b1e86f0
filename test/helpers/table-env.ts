/**
 * First setup file of the in-process tiers (vitest.config.ts): a test file gets its environment
 * before it loads, as a function does at cold start. lib/ reads TABLE_NAME and DYNAMODB_ENDPOINT
 * as lib/store/client.ts loads (a function without them stops at cold start, test/unit/config.test.ts),
 * so with both set here a test file imports lib/ statically, at its top; `startStack` then makes
 * this table on the worker's DynamoDB Local (test/helpers/stack.ts).
 *
 * What reads a queue, a bucket, a sender or the webhook settings as it loads (lib/webhooks/queue.ts,
 * lib/webhooks/config.ts, lib/files/storage.ts, lib/email/send.ts, and what imports them) is set up
 * by the test itself (`startStack({ webhooks })`, `useLocalS3`): those modules are still imported
 * after it, with `await import(...)`.
 */
import { randomUUID } from 'node:crypto';
import { dynamodbEndpoint } from './dynamodb-endpoint';

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
