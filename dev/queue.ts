/**
 * Local stand-in for SQS and the SQS -> Lambda event source mapping: an in-process
 * `local-aws-sqs` server with the delivery queue and its dead-letter queue, and a poller that
 * invokes the delivery handler with Lambda-shaped batches and deletes what it did not report
 * as failed (failed messages come back when their visibility timeout, set by the handler, ends).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createSqsServer } from 'local-aws-sqs';
import { DELIVERY_BATCH_SIZE, DELIVERY_MAX_CONCURRENCY, DELIVERY_TIMEOUT_S } from '../lib/webhooks/config';
import { lambdaContext, LOCAL_ACCOUNT, LOCAL_REGION } from './events';
import { invocation } from './invocation';
import { withoutCallLogging } from '../lib/aws/no-call-logging';

export interface LocalQueues {
  endpoint: string;
  queueUrl: string;
  dlqUrl: string;
  client: SQSClient;
  stop(): Promise<void>;
}

export const DELIVERY_QUEUE = 'webhook-deliveries';
export const DELIVERY_DLQ = 'webhook-deliveries-dlq';

/** Start the SQS server and create the queues as the stack defines them. */
export async function startQueues(opts: { maxReceiveCount: number; visibilityTimeoutS: number }): Promise<LocalQueues> {
  // Port 0: the kernel's free port, taken in the same call (a port chosen first may be taken by
  // another process before the server listens; createSqsServer never settles then).
  const server = await createSqsServer({ port: 0, hostname: '127.0.0.1', accountId: LOCAL_ACCOUNT, region: LOCAL_REGION });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  wakePollersOnSend(server);
  const client = withoutCallLogging(
    new SQSClient({
      endpoint,
      region: LOCAL_REGION,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const { QueueUrl: dlqUrl } = await client.send(new CreateQueueCommand({ QueueName: DELIVERY_DLQ }));
  const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] }));
  const { QueueUrl: queueUrl } = await client.send(
    new CreateQueueCommand({
      QueueName: DELIVERY_QUEUE,
      Attributes: {
        VisibilityTimeout: String(opts.visibilityTimeoutS),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: opts.maxReceiveCount }),
      },
    }),
  );
  return {
    endpoint,
    queueUrl: queueUrl!,
    dlqUrl: dlqUrl!,
    client,
    stop: async () => {
      client.destroy();
      await new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      });
    },
  };
}

/**
 * Idle pollers back off (25 ms, doubling to IDLE_MAX_MS) and are woken as soon as a local SQS
 * server of this process has taken a message in. Polling every 25 ms, the six pollers of an idle
 * `npm start` cost about a third of a core; woken by sends, a new message still waits no poll.
 * A message that becomes visible later (a retry's visibility timeout, a delay) waits at most
 * IDLE_MAX_MS more than it would in SQS.
 */
const IDLE_MIN_MS = 25;
const IDLE_MAX_MS = 500;
/**
 * A poller at IDLE_MAX_MS whose queue holds nothing at all (no message waiting, in flight or
 * delayed) sleeps up to QUIET_MS: only a send can give it work then, and a send wakes it. A
 * message in flight or delayed keeps it at IDLE_MAX_MS, since its return wakes nobody. Receiving
 * every IDLE_MAX_MS, the pollers of an idle `npm start` kept its Node process at 6 % of a core.
 */
export const QUIET_MS = 10_000;
const sleepers = new Set<() => void>();
/** Counts wakes, so that a poller never starts a quiet sleep after a send it did not see. */
let wakes = 0;
const wakeAll = () => {
  wakes++;
  for (const wake of [...sleepers]) wake();
};
const idle = (ms: number) =>
  new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      sleepers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    sleepers.add(wake);
  });

/** Wake this process's idle pollers when `server` has stored a sent message (its answer is out). */
export function wakePollersOnSend(server: Server): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // The JSON protocol names the action in a header; the query protocol's body is not read here.
    const target = req.headers['x-amz-target'];
    if (target === undefined || /SendMessage/.test(String(target))) res.once('finish', wakeAll);
  });
}

/** True when the queue holds no message: none waiting, in flight or delayed. */
async function nothingQueued(q: Pick<LocalQueues, 'client' | 'queueUrl'>): Promise<boolean> {
  const { Attributes = {} } = await q.client.send(
    new GetQueueAttributesCommand({
      QueueUrl: q.queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
    }),
  );
  return Object.values(Attributes).every((n) => n === '0');
}

// biome-ignore lint/suspicious/noConfusingVoidType: an SQS handler may return nothing, as Lambda allows
type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/**
 * Poll the queue and feed batches of up to DELIVERY_BATCH_SIZE (the event source's batch size)
 * to the handler, `concurrency` pollers at once (DELIVERY_MAX_CONCURRENCY by default). A batch
 * is what the receives (10 at most each) find at once: as with Lambda's batching window, a
 * backlog fills it, and a quiet queue sends what it has without waiting.
 */
export function startQueuePoller(
  q: Pick<LocalQueues, 'client' | 'queueUrl'>,
  handler: SqsHandler,
  opts: {
    concurrency?: number;
    batchSize?: number;
    log?: (line: string) => void;
    /** Another queue's consumer (the import worker): its name, function and timeout. */
    queueName?: string;
    functionName?: string;
    timeoutMs?: number;
  } = {},
): { stop(): Promise<void>; drainUnattempted(): Promise<string[]> } {
  let running = true;
  const batchSize = opts.batchSize ?? DELIVERY_BATCH_SIZE;
  const functionName = opts.functionName ?? 'webhook-delivery';
  /**
   * Receive counts, kept here: local-aws-sqs neither returns ApproximateReceiveCount to current
   * SDKs nor counts as SQS does (it also counts visibility changes). The delivery handler reads
   * the count as the attempt number, so it must be right.
   */
  const receives = new Map<string, number>();
  const arn = `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${opts.queueName ?? DELIVERY_QUEUE}`;
  const worker = async () => {
    let idleMs = IDLE_MIN_MS;
    while (running) {
      try {
        const receive = (max: number) =>
          q.client.send(
            new ReceiveMessageCommand({
              QueueUrl: q.queueUrl,
              MaxNumberOfMessages: max,
              // local-aws-sqs answers a long poll only when it times out, so poll short and often.
              WaitTimeSeconds: 0,
              MessageSystemAttributeNames: ['All'],
              MessageAttributeNames: ['All'],
            }),
          );
        // One receive first; a full one means a backlog, and the rest of the batch is received at
        // once, as Lambda's pollers receive apart from the function. One after another, the five
        // receives of a batch of 50 were a third of its time (`npm run bench`); an idle queue
        // still costs one receive per poll.
        const Messages: Message[] = (await receive(Math.min(10, batchSize))).Messages ?? [];
        if (Messages.length === 10 && batchSize > 10) {
          const rest = Array.from({ length: Math.ceil((batchSize - 10) / 10) }, (_, i) => receive(Math.min(10, batchSize - 10 - i * 10)));
          // Settled, not all: a failed receive must not drop what the others received.
          for (const r of await Promise.allSettled(rest)) if (r.status === 'fulfilled') Messages.push(...(r.value.Messages ?? []));
        }
        if (!Messages.length) {
          // stop() may have come while this receive was out: its wake found no sleeper, and a quiet
          // sleep begun now would hold the runtime's exit for QUIET_MS.
          if (!running) break;
          const seen = wakes;
          if (idleMs >= IDLE_MAX_MS && (await nothingQueued(q)) && wakes === seen) await idle(QUIET_MS);
          else await idle(idleMs);
          idleMs = Math.min(IDLE_MAX_MS, idleMs * 2);
          continue;
        }
        idleMs = IDLE_MIN_MS;
        const event: SQSEvent = {
          Records: Messages.map((m) => ({
            messageId: m.MessageId!,
            receiptHandle: m.ReceiptHandle!,
            body: m.Body ?? '',
            attributes: {
              ApproximateReceiveCount: String(receives.set(m.MessageId!, (receives.get(m.MessageId!) ?? 0) + 1).get(m.MessageId!)),
              SentTimestamp: m.Attributes?.SentTimestamp ?? String(Date.now()),
              SenderId: 'local',
              ApproximateFirstReceiveTimestamp: m.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
            },
            messageAttributes: {},
            md5OfBody: m.MD5OfBody ?? '',
            eventSource: 'aws:sqs',
            eventSourceARN: arn,
            awsRegion: LOCAL_REGION,
          })),
        };
        let failed = new Set<string>();
        try {
          const context = lambdaContext(functionName, opts.timeoutMs ?? DELIVERY_TIMEOUT_S * 1000);
          const res = await invocation(context.awsRequestId, () => handler(event, context));
          failed = new Set((res?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch (err) {
          // A crashed invocation: nothing is deleted; the messages return after the queue's visibility timeout.
          opts.log?.(`[queue] ${functionName} threw: ${(err as Error).message}`);
          continue;
        }
        const done = Messages.filter((m) => !failed.has(m.MessageId!));
        for (const m of done) receives.delete(m.MessageId!);
        const deletes = [];
        for (let i = 0; i < done.length; i += 10) {
          deletes.push(
            q.client.send(
              new DeleteMessageBatchCommand({
                QueueUrl: q.queueUrl,
                Entries: done.slice(i, i + 10).map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle! })),
              }),
            ),
          );
        }
        await Promise.all(deletes);
      } catch (err) {
        if (!running) break;
        opts.log?.(`[queue] poll failed: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const workers = Array.from({ length: opts.concurrency ?? DELIVERY_MAX_CONCURRENCY }, worker);
  return {
    stop: async () => {
      running = false;
      wakeAll();
      await Promise.all(workers);
    },
    async drainUnattempted() {
      // After stop(): the messages waiting for their first attempt (retries of attempted ones
      // are in the table, see restore.ts). Received with a long visibility, so each is taken once.
      const bodies: string[] = [];
      for (;;) {
        const { Messages = [] } = await q.client.send(
          new ReceiveMessageCommand({ QueueUrl: q.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 3600 }),
        );
        if (!Messages.length) return bodies;
        for (const m of Messages) if (!receives.has(m.MessageId!)) bodies.push(m.Body ?? '');
      }
    },
  };
}
