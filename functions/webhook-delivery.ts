/**
 * SQS -> signed HTTPS POST. Each message is one (event, endpoint); its receive count is the
 * attempt number. A failed attempt that has retries left sets the message's visibility to the
 * next delay and is reported as a batch item failure, so SQS keeps it and hands it back then.
 * After the last attempt the message goes to the dead-letter queue. Every attempt is recorded.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { ChangeMessageVisibilityCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../lib/logger';
import { getEndpoint, putAttempt, recordFailure, recordSuccess } from '../lib/store/webhooks';
import { retryDelayS, webhookConfig, maxAttempts } from '../lib/webhooks/config';
import { DeliveryMessage, queueConfig, sqs } from '../lib/webhooks/queue';
import { sendWebhook } from '../lib/webhooks/send';
import { deliveryHeaders } from '../lib/webhooks/sign';

/** Thrown to leave a message on the queue for its next attempt. */
class RetryLater extends Error {}

async function deadLetter(record: SQSRecord, reason: string) {
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueConfig.dlqUrl,
      MessageBody: record.body,
      MessageAttributes: { reason: { DataType: 'String', StringValue: reason.slice(0, 256) } },
    }),
  );
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

async function deliver(record: SQSRecord): Promise<void> {
  const parsed = DeliveryMessage.safeParse(parseJson(record.body));
  if (!parsed.success) {
    // It can never succeed; keep it for inspection rather than retrying it.
    logger.error('malformed delivery message', { messageId: record.messageId });
    return deadLetter(record, 'malformed message');
  }
  const msg = parsed.data;
  const attempt = Number(record.attributes.ApproximateReceiveCount) || 1;
  const endpoint = await getEndpoint(msg.tenantId, msg.endpointId);
  if (!endpoint?.active) {
    logger.info('endpoint gone or disabled; event dropped', { eventId: msg.eventId, endpointId: msg.endpointId });
    return;
  }

  const startedAt = new Date();
  const result = await sendWebhook(
    endpoint.url,
    msg.body,
    deliveryHeaders(endpoint.secret, { id: msg.eventId, type: msg.eventType, body: msg.body }, startedAt.getTime()),
    { timeoutMs: webhookConfig.timeoutMs, allowLoopback: webhookConfig.allowLoopback },
  );
  const at = startedAt.toISOString();
  const base = {
    event_id: msg.eventId,
    event_type: msg.eventType,
    attempt,
    response_status: result.status,
    duration_ms: Math.round(result.durationMs),
    created_at: at,
    error: result.error ?? null,
    response_body: result.body || null,
  };
  if (result.status >= 200 && result.status < 300) {
    await putAttempt(msg.tenantId, endpoint.id, { ...base, success: true, next_attempt_at: null, dead_lettered: false });
    await recordSuccess(msg.tenantId, endpoint.id, at);
    return;
  }

  // 410 Gone: the receiver asks us to stop (Standard Webhooks).
  const gone = result.status === 410;
  const failingTooLong =
    !gone && !!endpoint.failing_since && Date.parse(at) - Date.parse(endpoint.failing_since) >= webhookConfig.disableAfterMs;
  const delay = gone || failingTooLong ? undefined : retryDelayS(attempt, webhookConfig.retryScheduleS, result.retryAfterMs);
  const deadLettered = !gone && delay === undefined;
  // The attempt is logged before the endpoint's counters move, as on the success path.
  await putAttempt(msg.tenantId, endpoint.id, {
    ...base,
    success: false,
    next_attempt_at: delay === undefined ? null : new Date(Date.now() + delay * 1000).toISOString(),
    dead_lettered: deadLettered,
  });
  await recordFailure(
    msg.tenantId,
    endpoint.id,
    at,
    gone ? 'receiver answered 410 Gone' : failingTooLong ? `failing continuously since ${endpoint.failing_since}` : undefined,
  );
  if (delay !== undefined) {
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueConfig.queueUrl,
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: delay,
      }),
    );
    throw new RetryLater(`attempt ${attempt} of ${maxAttempts()} failed; next in ${delay} s`);
  }
  if (deadLettered) await deadLetter(record, `failed ${attempt} attempts`);
}

export const handler = async (event: SQSEvent, context: Context) => {
  logger.addContext(context);
  // A processor per invocation: it holds the batch's state, and local runs overlap invocations.
  // A batch whose every record failed is normal here (one receiver down), not an invocation error.
  return processPartialResponse(event, deliver, new BatchProcessor(EventType.SQS), {
    context,
    throwOnFullBatchFailure: false,
  });
};
