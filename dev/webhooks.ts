/**
 * The local webhook pipeline: SQS queues, the stream poller feeding the fan-out handler and the
 * queue poller feeding the delivery handler: the same handler modules Lambda runs. The same
 * stream reader also feeds the table maintenance consumer (functions/stuck-reindex.ts): audit
 * intents into records, and the stuck index's re-index. Where mail is set up (MAIL_FROM), the fan-out also
 * queues interview invitations, and dev/invitations.ts runs their worker.
 * Needs TABLE_NAME and DYNAMODB_ENDPOINT set; sets the queue variables the handlers read.
 */
import { startQueuePoller, startQueues, type LocalQueues } from './queue';
import { startStreamPoller } from './stream';
import { init } from './invocation';

export interface WebhookPipeline {
  queues: LocalQueues;
  stop(): Promise<void>;
}

export async function startWebhookPipeline(opts: {
  checkpointFile?: string;
  /**
   * Where `stop()` saves deliveries not attempted yet; with it, the start also puts back the
   * scheduled retries and running replay jobs of a previous run (restore.ts). `npm start` sets it.
   */
  pendingFile?: string;
  log?: (line: string) => void;
  concurrency?: number;
}): Promise<WebhookPipeline> {
  const { maxAttempts, FANOUT_TIMEOUT_S } = await import('../lib/webhooks/config');
  // Visibility timeout: 6x the function timeout, as the stack sets it. The emulator counts
  // visibility changes as receives, so its redrive (a crash backstop) gets generous headroom;
  // the delivery handler dead-letters explicitly after the last attempt, as deployed.
  const queues = await startQueues({ maxReceiveCount: 3 * maxAttempts() + 2, visibilityTimeoutS: 180 });
  process.env.WEBHOOK_QUEUE_URL = queues.queueUrl;
  process.env.WEBHOOK_DLQ_URL = queues.dlqUrl;
  process.env.SQS_ENDPOINT = queues.endpoint;
  // Before the fan-out loads: it reads INVITATION_QUEUE_URL once.
  const invitations = process.env.MAIL_FROM
    ? await (await import('./invitations')).startInvitationPipeline({ sqs: queues, log: opts.log })
    : undefined;
  const { handler: fanout } = await init(() => import('../functions/webhook-fanout'));
  const { handler: delivery } = await init(() => import('../functions/webhook-delivery'));
  const { handler: stuckReindex } = await init(() => import('../functions/stuck-reindex'));
  const { REINDEX_TIMEOUT_S } = await import('../lib/store/table');
  const { MAINTENANCE_FILTER_PATTERNS } = await import('../lib/store/stream-filters');
  // Table maintenance (audit intents, the stuck index's re-index) is the stream's second event
  // source mapping, as deployed; here both are fed from one reader's GetRecords (each with its own
  // filters and retries), as every read of the stream costs DynamoDB Local CPU per record.
  const stream = startStreamPoller({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    handler: fanout,
    timeoutMs: FANOUT_TIMEOUT_S * 1000,
    also: [
      { handler: stuckReindex, filters: MAINTENANCE_FILTER_PATTERNS, functionName: 'stuck-reindex', timeoutMs: REINDEX_TIMEOUT_S * 1000 },
    ],
    checkpointFile: opts.checkpointFile,
    log: opts.log,
  });
  // Changes made from here on become events: none is drained with the stream's old records.
  await stream.ready;
  if (opts.pendingFile) {
    const { restorePending } = await import('./restore');
    const restored = await restorePending({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      tableName: process.env.TABLE_NAME!,
      sqs: queues.client,
      queueUrl: queues.queueUrl,
      savedFile: opts.pendingFile,
    });
    if (restored.retries + restored.replays + restored.saved) {
      opts.log?.(
        `webhooks: restored ${restored.retries} scheduled retries, ${restored.replays} replay jobs, ${restored.saved} unsent deliveries`,
      );
    }
  }
  const poller = startQueuePoller(queues, delivery, { log: opts.log, concurrency: opts.concurrency });
  return {
    queues,
    stop: async () => {
      await stream.stop();
      await poller.stop();
      await invitations?.stop();
      if (opts.pendingFile) {
        const { saveMessages } = await import('./restore');
        saveMessages(opts.pendingFile, await poller.drainUnattempted());
      }
      await queues.stop();
    },
  };
}
