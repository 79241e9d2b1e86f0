/**
 * `npm start` feeds the stream's two event source mappings (the webhook fan-out, the table
 * maintenance consumer) from one reader (dev/stream.ts `also`): each gets the records its own
 * filters match, and retries only its own failures, as two mappings would.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { type StreamPoller, startStreamPoller } from '../../dev/stream';
import { ddb } from '../../lib/store/client';
import { dynamodbEndpoint } from '../helpers/dynamodb-endpoint';
import { startStack, type Stack } from '../helpers/stack';
import { until } from '../helpers/until';

let stack: Stack;
let poller: StreamPoller;
const seen = { first: [] as string[], second: [] as string[] };
let failOnce: string | undefined;

const kindIs = (kind: string) => ({ dynamodb: { NewImage: { kind: { S: [kind] } } } });
const idsOf = (e: DynamoDBStreamEvent) => e.Records.map((r) => String(r.dynamodb?.NewImage?.SK?.S));

beforeAll(async () => {
  stack = await startStack({ stream: true });
  poller = startStreamPoller({
    endpoint: dynamodbEndpoint(),
    tableName: stack.tableName,
    intervalMs: 50,
    timeoutMs: 60_000,
    filters: [kindIs('first')],
    handler: async (e) => {
      seen.first.push(...idsOf(e));
    },
    also: [
      {
        functionName: 'second',
        timeoutMs: 60_000,
        filters: [kindIs('second')],
        // Fails the first time it meets `failOnce`: a mapping retries from the failed record.
        handler: async (e) => {
          const ids = idsOf(e);
          const at = ids.indexOf(failOnce ?? '');
          if (at >= 0) {
            failOnce = undefined;
            seen.second.push(...ids.slice(0, at));
            return { batchItemFailures: [{ itemIdentifier: String(e.Records[at]!.dynamodb?.SequenceNumber) }] };
          }
          seen.second.push(...ids);
        },
      },
    ],
  });
  await poller.ready;
});
afterAll(async () => {
  await poller?.stop();
  await stack?.close();
});

it('one reader feeds each consumer the records its filters match, and a failure is retried for its consumer alone', async () => {
  const run = `R${Date.now().toString(36)}`;
  const put = (sk: string, kind: string) =>
    ddb.send(new PutCommand({ TableName: stack.tableName, Item: { PK: `STREAM-READER#${run}`, SK: sk, kind } }));
  failOnce = `${run}-s2`;
  for (const [sk, kind] of [
    [`${run}-f1`, 'first'],
    [`${run}-s1`, 'second'],
    [`${run}-s2`, 'second'],
    [`${run}-f2`, 'first'],
    [`${run}-n1`, 'neither'],
    [`${run}-s3`, 'second'],
  ] as const)
    await put(sk, kind);
  await until('both consumers to have their records', () => seen.first.length >= 2 && seen.second.length >= 3);
  expect(seen.first).toEqual([`${run}-f1`, `${run}-f2`]);
  expect(seen.second).toEqual([`${run}-s1`, `${run}-s2`, `${run}-s3`]);
  expect(failOnce).toBeUndefined();
});
