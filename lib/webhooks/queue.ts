/** The delivery queue: one message per (event, endpoint). */
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { sqsClient } from '../aws/sqs';
import { config, requireSettings } from '../config';

// Checked as this module loads: a function that queues and was not given the queues stops at cold start.
requireSettings('webhookQueueUrl', 'webhookDlqUrl');
export const queueConfig = {
  get queueUrl() {
    return config.webhookQueueUrl;
  },
  get dlqUrl() {
    return config.webhookDlqUrl;
  },
};

export const sqs = sqsClient;

/** What the fan-out enqueues. `body` is the exact envelope every attempt sends and signs. */
export const DeliveryMessage = z.object({
  v: z.literal(1),
  eventId: z.string(),
  eventType: z.string(),
  tenantId: z.string(),
  endpointId: z.string(),
  body: z.string(),
  /** A resend or replay: a new attempt series, numbered from 1 again (`resend:<id>`, `replay:<job id>`). */
  series: z.optional(z.string()),
  /** The replay job this delivery belongs to; its outcome moves the job's progress. */
  replayJob: z.optional(z.string()),
  /**
   * Attempts already made before this message existed: set when `npm start` restores a
   * scheduled retry after a restart, so the attempt numbers go on where they stopped.
   */
  attemptsBefore: z.optional(z.int()),
  /**
   * The body was just kept in the table by whoever queued the message (the fan-out, or the
   * delivery for an `endpoint_disabled` event): the first attempt does not write it again.
   * Without it (a resend, a replay, or a message queued by an older version), the first attempt
   * keeps the body, with a fresh 32 days.
   */
  kept: z.optional(z.literal(true)),
});
export type DeliveryMessage = z.infer<typeof DeliveryMessage>;

/** A replay job's work item: scan the endpoint's log and queue what it missed (the delivery function runs it). */
export const ReplayMessage = z.object({
  v: z.literal(1),
  kind: z.literal('replay'),
  tenantId: z.string(),
  endpointId: z.string(),
  jobId: z.string(),
});
export type ReplayMessage = z.infer<typeof ReplayMessage>;

/** Send messages to the delivery queue, 10 per call; throws if any is refused. */
export async function enqueue(messages: (DeliveryMessage | ReplayMessage)[]): Promise<void> {
  for (let i = 0; i < messages.length; i += 10) {
    const batch = messages.slice(i, i + 10);
    const res = await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: queueConfig.queueUrl,
        Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })),
      }),
    );
    if (res.Failed?.length) throw new Error(`SQS refused ${res.Failed.length} of ${batch.length} messages`);
  }
}
