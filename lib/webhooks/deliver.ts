/**
 * SQS -> signed HTTPS POST. Each message is one (event, endpoint); its receive count is the
 * attempt number. A failed attempt that has retries left sets the message's visibility to the
 * next delay and is reported as a batch item failure, so SQS keeps it and hands it back then.
 * After the last attempt the message goes to the dead-letter queue. Every attempt is recorded.
 *
 * The same queue carries replay jobs (`kind: "replay"`): the function scans the endpoint's log
 * and queues the events it missed (lib/webhooks/replay-run.ts).
 */
import { ChangeMessageVisibilityCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import type { QueueRules } from '../lambda';
import { logger } from '../logger';
import { MetricUnit } from '../metrics';
import type { QueueMessage } from '../records';
import { attemptItem, putAttempt } from '../store/webhook-attempts';
import { recordFailure, recordSuccess } from '../store/webhook-endpoints';
import { candidateOfBody, eventItem, putEvent, writeLogItems } from '../store/webhook-events';
import { attemptRecord, signAndSend } from './attempt';
import { maxAttempts, retryDelayS, webhookConfig } from './config';
import { DeliveryBatch, replayFinished } from './delivery-batch';
import { endpointDisabled } from './disable';
import { DeliveryMessage, queueConfig, ReplayMessage, sqs } from './queue';
import { runReplay } from './replay-run';

/** Thrown to leave a message on the queue for its next attempt. */
class RetryLater extends Error {}

async function deadLetter(message: { raw: string }, reason: string) {
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: queueConfig.dlqUrl,
      MessageBody: message.raw,
      MessageAttributes: { reason: { DataType: 'String', StringValue: reason.slice(0, 256) } },
    }),
  );
}

/** One delivery attempt of one message. */
export async function deliver(record: QueueMessage<DeliveryMessage>, batch: DeliveryBatch): Promise<void> {
  const msg = record.body;
  const attempt = (msg.attemptsBefore ?? 0) + record.receiveCount;
  const candidateId = candidateOfBody(msg.body);
  const [endpoint, erased] = await Promise.all([
    batch.endpoint(msg.tenantId, msg.endpointId),
    candidateId ? batch.erased(msg.tenantId, candidateId) : false,
  ]);
  if (!endpoint?.active) {
    logger.info('endpoint gone or disabled; event dropped', { eventId: msg.eventId, endpointId: msg.endpointId });
    await replayFinished(msg, false);
    return;
  }
  if (erased) {
    // Queued before its candidate was erased: never sent, with or without the data, and recorded
    // as such. The attempt holds no body and no answer, so it is no copy.
    logger.info('candidate erased; delivery dropped', { eventId: msg.eventId, endpointId: msg.endpointId });
    batch.metrics.add('DeliveriesErased');
    await putAttempt(
      msg.tenantId,
      endpoint.id,
      {
        event_id: msg.eventId,
        event_type: msg.eventType,
        attempt,
        response_status: 0,
        success: false,
        duration_ms: 0,
        created_at: new Date().toISOString(),
        error: 'candidate erased; not sent',
        response_body: null,
        next_attempt_at: null,
        dead_lettered: false,
        error_category: 'erased',
      },
      { series: msg.series },
    );
    await replayFinished(msg, false);
    return;
  }
  // Keep the body for resend and replay (32 days, longer than the attempts), unless whoever queued
  // the message just did (the fan-out, once per event). A resend or replay series writes it again,
  // so the body outlives that series' attempts too. Once per series is enough.
  const kept =
    attempt === 1 && !msg.kept ? eventItem(msg.tenantId, { event_id: msg.eventId, event_type: msg.eventType, body: msg.body }) : undefined;

  const event = { id: msg.eventId, type: msg.eventType, body: msg.body };
  const sent = await signAndSend(endpoint, event);
  const { result, at, category } = sent;
  const series = { series: msg.series, candidateId };
  // What the log lines say about an attempt: ids, numbers and a category; never the receiver's
  // URL (it can hold credentials), its answer, the payload or the signature.
  const outcome = {
    tenant_id: msg.tenantId,
    webhook_id: endpoint.id,
    event_id: msg.eventId,
    event_type: msg.eventType,
    attempt,
    response_status: result.status,
    error: category,
    duration_ms: Math.round(result.durationMs),
  };
  batch.metrics.add('DeliveryAttempt', attempt);
  batch.metrics.add('DeliveryLatency', result.durationMs, MetricUnit.Milliseconds);
  if (category === null) {
    logger.debug('delivery succeeded', outcome);
    batch.metrics.add('DeliveriesSucceeded');
    const logged = attemptItem(msg.tenantId, endpoint.id, attemptRecord(event, attempt, sent), series);
    if (endpoint.failure_count || endpoint.failing_since) {
      // A failing endpoint's run ends now (failure_count back to 0): in order, at once.
      await writeLogItems(kept ? [logged, kept] : [logged]).then((left) => {
        if (left.length) throw new Error('delivery log not written');
      });
      await recordSuccess(msg.tenantId, endpoint.id, at);
      await replayFinished(msg, true);
      return;
    }
    batch.logs.set(record.id, {
      items: kept ? [logged, kept] : [logged],
      tenantId: msg.tenantId,
      endpointId: endpoint.id,
      at,
      replay: msg.replayJob ? msg : undefined,
    });
    return;
  }
  logger.info('delivery failed', outcome);
  batch.metrics.add('DeliveriesFailed');
  if (kept) await putEvent(msg.tenantId, { event_id: msg.eventId, event_type: msg.eventType, body: msg.body });

  // 410 Gone: the receiver asks us to stop (Standard Webhooks).
  const gone = result.status === 410;
  const failingTooLong =
    !gone && !!endpoint.failing_since && Date.parse(at) - Date.parse(endpoint.failing_since) >= webhookConfig.disableAfterMs;
  const delay = gone || failingTooLong ? undefined : retryDelayS(attempt, webhookConfig.retryScheduleS, result.retryAfterMs);
  const deadLettered = !gone && delay === undefined;
  // The attempt is logged before the endpoint's counters move, as on the success path.
  await putAttempt(
    msg.tenantId,
    endpoint.id,
    attemptRecord(event, attempt, sent, {
      next_attempt_at: delay === undefined ? null : new Date(Date.now() + delay * 1000).toISOString(),
      dead_lettered: deadLettered,
    }),
    series,
  );
  const disable = gone ? 'receiver answered 410 Gone' : failingTooLong ? `failing continuously since ${endpoint.failing_since}` : undefined;
  const { disabledNow } = await recordFailure(msg.tenantId, endpoint.id, at, disable);
  if (disabledNow) await endpointDisabled(msg, endpoint, disable!, at);
  if (delay !== undefined) {
    await sqs().send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueConfig.queueUrl,
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: delay,
      }),
    );
    throw new RetryLater(`attempt ${attempt} of ${maxAttempts()} failed; next in ${delay} s`);
  }
  if (deadLettered) {
    await deadLetter(record, `failed ${attempt} attempts`);
    logger.warn('delivery dead-lettered', outcome);
  }
  await replayFinished(msg, false);
}

/** What the delivery queue carries: deliveries, and replay jobs (`kind: "replay"`). */
export const DeliveryQueueMessage = z.union([ReplayMessage, DeliveryMessage]);
type Received = QueueMessage<z.output<typeof DeliveryQueueMessage>>;

/** The message as a delivery, or undefined for a replay job. */
const asDelivery = (m: Received) => ('kind' in m.body ? undefined : (m as QueueMessage<DeliveryMessage>));

/**
 * A batch of delivery-queue messages: deliveries and replay jobs (functions/webhook-delivery.ts
 * runs it with queueHandler, lib/lambda.ts). A batch whose every record failed is normal here
 * (one receiver down), not an invocation error.
 */
export const webhookDelivery: QueueRules<z.output<typeof DeliveryQueueMessage>, DeliveryBatch> = {
  prepare(messages) {
    const batch = new DeliveryBatch();
    // Whether the batch's candidates were erased: read once per batch (one BatchGetItem per 100 candidates), beside its endpoints'.
    batch.prefetchErased(
      messages.flatMap((m) => {
        const d = asDelivery(m);
        const candidateId = d && candidateOfBody(d.body.body);
        return candidateId ? [{ tenantId: m.body.tenantId, candidateId }] : [];
      }),
    );
    return batch;
  },
  record(m, batch, invocation) {
    const d = asDelivery(m);
    return d ? deliver(d, batch) : runReplay(m.body as ReplayMessage, invocation);
  },
  // It can never succeed; keep it for inspection rather than retrying it.
  async invalid(message) {
    logger.error('malformed delivery message', { messageId: message.id });
    await deadLetter(message, 'malformed message');
  },
  // The successes' attempt log, written together: the records it lost are reported failed too.
  async finish(batch) {
    try {
      return await batch.flush();
    } finally {
      batch.metrics.flush();
    }
  },
};
