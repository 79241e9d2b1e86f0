import { afterAll, beforeAll } from 'vitest';
import { sqsClient } from '../../lib/aws/sqs';

const QUEUE = 'http://127.0.0.1:9/000000000000/held-import-queue';
const NAME = 'held-import-queue';

/**
 * The import queue of a stack that runs no import pipeline, for the application route's tests:
 * each message lib/ sends to it is parsed into `sent` and answered as SQS would accept it, and
 * never leaves the process. A middleware on lib/'s SQS client, first of its stack (the SDK's
 * own body checksum would refuse the stand-in answer), removed after the file, as that client
 * outlives it (vitest.config.ts). Call it after the hook that starts the stack: a stack that
 * moves SQS_ENDPOINT gets a new client.
 */
export function holdImportQueueSends(): { sent: Record<string, unknown>[] } {
  const held = { sent: [] as Record<string, unknown>[] };
  beforeAll(() => {
    process.env.IMPORT_QUEUE_URL = QUEUE;
    sqsClient().middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { QueueUrl?: string; MessageBody?: string };
        if (context.commandName !== 'SendMessageCommand' || input.QueueUrl !== QUEUE) return next(args);
        held.sent.push(JSON.parse(input.MessageBody!) as Record<string, unknown>);
        return { output: { $metadata: {}, MessageId: `held-${held.sent.length}` }, response: {} } as never;
      },
      { step: 'initialize', priority: 'high', name: NAME },
    );
  });
  afterAll(() => {
    sqsClient().middlewareStack.remove(NAME);
  });
  return held;
}
