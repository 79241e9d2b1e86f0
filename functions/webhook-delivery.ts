/**
 * SQS -> signed HTTPS POST. Each message is one (event, endpoint); its receive count is the
 * attempt number. A failed attempt that has retries left sets the message's visibility to the
 * next delay and is reported as a batch item failure, so SQS keeps it and hands it back then.
 * After the last attempt the message goes to the dead-letter queue. Every attempt is recorded.
 *
 * The same queue carries replay jobs (`kind: "replay"`): the function scans the endpoint's log
 * and queues the events it missed (see runReplay).
 */
import { createHash } from 'node:crypto';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { ChangeMessageVisibilityCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../lib/logger';
import { ddbClient } from '../lib/store/client';
import { emitMetric, metrics, MetricUnit } from '../lib/metrics';
import { ENDPOINT_DISABLED_EVENT } from '../lib/model';
import {
  attemptOutcomes,
  getEndpoint,
  getEvent,
  getReplayJob,
  listEndpoints,
  previousSecret,
  putAttempt,
  putEvent,
  recordFailure,
  recordSuccess,
  updateReplayJob,
  type Endpoint,
} from '../lib/store/webhooks';
import { retryDelayS, webhookConfig, maxAttempts } from '../lib/webhooks/config';
import { envelope } from '../lib/webhooks/events';
import { errorCategory } from '../lib/webhooks/outcome';
import { missedEvents } from '../lib/webhooks/replay';
import { DeliveryMessage, enqueue, queueConfig, ReplayMessage, sqs } from '../lib/webhooks/queue';
import { sendWebhook } from '../lib/webhooks/send';
import { deliveryHeaders } from '../lib/webhooks/sign';
import { tracer } from '../lib/tracer';

// Each DynamoDB and SQS call of an invocation as an X-Ray subsegment (a no-op outside Lambda).
tracer.captureAWSv3Client(ddbClient);
tracer.captureAWSv3Client(sqs);

/** Thrown to leave a message on the queue for its next attempt. */
class RetryLater extends Error {}

/** A replay queues at most this many events; with at most one running job per endpoint and 20 active endpoints, that bounds a workspace. */
export const MAX_REPLAY_EVENTS = 5_000;

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

/**
 * A replay delivery finished (accepted or given up): move its job's progress. A failure here is
 * logged, not retried: retrying would send the event again for the sake of a counter.
 */
async function replayFinished(msg: DeliveryMessage, sent: boolean) {
  if (!msg.replayJob) return;
  try {
    await updateReplayJob(msg.tenantId, msg.endpointId, msg.replayJob, { finished: 1, ...(sent && { sent: 1 }) });
  } catch (err) {
    logger.error('replay progress not recorded', { jobId: msg.replayJob, error: { name: (err as Error).name, message: (err as Error).message } });
  }
}

/**
 * The service disabled an endpoint: tell the workspace. A WARN log line and a metric for
 * operators, and a webhook.endpoint_disabled event to the workspace's other active endpoints.
 */
async function endpointDisabled(msg: DeliveryMessage, endpoint: Endpoint, reason: string, at: string) {
  logger.warn('webhook disabled', { tenant_id: msg.tenantId, webhook_id: endpoint.id, reason });
  emitMetric('EndpointsDisabled');
  const others = (await listEndpoints(msg.tenantId)).filter((e) => e.active && e.id !== endpoint.id);
  if (!others.length) return;
  // The envelope names the workspace by slug; the failing event's own envelope carries it.
  const tenantSlug = String((parseJson(msg.body) as { tenantSlug?: unknown } | undefined)?.tenantSlug ?? '');
  const id = `evt_${createHash('sha256').update(`${ENDPOINT_DISABLED_EVENT}:${endpoint.id}:${at}`).digest('hex').slice(0, 32)}`;
  const body = envelope(
    { id, type: ENDPOINT_DISABLED_EVENT, tenantId: msg.tenantId, timestamp: at, data: { webhookId: endpoint.id, reason, disabledAt: at } },
    tenantSlug,
  );
  await enqueue(
    others.map((e) => ({ v: 1 as const, eventId: id, eventType: ENDPOINT_DISABLED_EVENT, tenantId: msg.tenantId, endpointId: e.id, body })),
  );
}

async function deliver(record: SQSRecord, msg: DeliveryMessage): Promise<void> {
  const attempt = (msg.attemptsBefore ?? 0) + (Number(record.attributes.ApproximateReceiveCount) || 1);
  const endpoint = await getEndpoint(msg.tenantId, msg.endpointId);
  if (!endpoint?.active) {
    logger.info('endpoint gone or disabled; event dropped', { eventId: msg.eventId, endpointId: msg.endpointId });
    await replayFinished(msg, false);
    return;
  }
  // Keep the body for resend and replay (30 days, as attempts). Once per series is enough.
  if (attempt === 1) await putEvent(msg.tenantId, { event_id: msg.eventId, event_type: msg.eventType, body: msg.body });

  const startedAt = new Date();
  const result = await sendWebhook(
    endpoint.url,
    msg.body,
    deliveryHeaders(endpoint.secret, { id: msg.eventId, type: msg.eventType, body: msg.body }, startedAt.getTime(), previousSecret(endpoint, startedAt.getTime())),
    { timeoutMs: webhookConfig.timeoutMs, allowLoopback: webhookConfig.allowLoopback },
  );
  const at = startedAt.toISOString();
  const category = errorCategory(result);
  const base = {
    event_id: msg.eventId,
    event_type: msg.eventType,
    attempt,
    response_status: result.status,
    duration_ms: Math.round(result.durationMs),
    created_at: at,
    error: result.error ?? null,
    response_body: result.body || null,
    error_category: category,
  };
  const series = { series: msg.series };
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
    duration_ms: base.duration_ms,
  };
  emitMetric('DeliveryAttempt', attempt);
  emitMetric('DeliveryLatency', result.durationMs, MetricUnit.Milliseconds);
  if (category === null) {
    await putAttempt(msg.tenantId, endpoint.id, { ...base, success: true, next_attempt_at: null, dead_lettered: false }, series);
    await recordSuccess(msg.tenantId, endpoint.id, at);
    logger.debug('delivery succeeded', outcome);
    emitMetric('DeliveriesSucceeded');
    await replayFinished(msg, true);
    return;
  }
  logger.info('delivery failed', outcome);
  emitMetric('DeliveriesFailed');

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
    {
      ...base,
      success: false,
      next_attempt_at: delay === undefined ? null : new Date(Date.now() + delay * 1000).toISOString(),
      dead_lettered: deadLettered,
    },
    series,
  );
  const disable = gone ? 'receiver answered 410 Gone' : failingTooLong ? `failing continuously since ${endpoint.failing_since}` : undefined;
  const { disabledNow } = await recordFailure(msg.tenantId, endpoint.id, at, disable);
  if (disabledNow) await endpointDisabled(msg, endpoint, disable!, at);
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
  if (deadLettered) {
    await deadLetter(record, `failed ${attempt} attempts`);
    logger.warn('delivery dead-lettered', outcome);
  }
  await replayFinished(msg, false);
}

/**
 * A replay job: read the endpoint's attempts from `since` to the job's start, and queue the
 * missed events again (same id and body), 10 at a time, saving the position after each batch.
 * A retried or continued message starts from the saved position, so events are queued once
 * (at most the last batch twice, if the function stops between sending it and saving).
 */
async function runReplay(msg: ReplayMessage, context: Context): Promise<void> {
  const job = await getReplayJob(msg.tenantId, msg.endpointId);
  if (!job || job.id !== msg.jobId || job.status !== 'running') return;
  const endpoint = await getEndpoint(msg.tenantId, msg.endpointId);
  if (!endpoint?.active) {
    await updateReplayJob(msg.tenantId, msg.endpointId, job.id, { failed: 'the endpoint is no longer active' });
    return;
  }
  const outcomes = await attemptOutcomes(msg.tenantId, msg.endpointId, Date.parse(job.since), Date.parse(job.created_at));
  const missed = missedEvents(outcomes, Date.parse(job.created_at)).slice(0, MAX_REPLAY_EVENTS);
  let position = job.position;
  while (position < missed.length) {
    // Leave room for one more batch; go on in a fresh invocation from the saved position.
    if (context.getRemainingTimeInMillis() < 10_000) return enqueue([msg]);
    const chunk = missed.slice(position, position + 10);
    const events = await Promise.all(chunk.map((e) => getEvent(msg.tenantId, e.id)));
    const messages = events.flatMap((e) =>
      e
        ? [{ v: 1 as const, eventId: e.event_id, eventType: e.event_type, tenantId: msg.tenantId, endpointId: msg.endpointId, body: e.body, series: `replay:${job.id}`, replayJob: job.id }]
        : [],
    );
    if (messages.length < chunk.length) logger.warn('replay: event bodies expired', { jobId: job.id, missing: chunk.length - messages.length });
    await enqueue(messages);
    position += chunk.length;
    await updateReplayJob(msg.tenantId, msg.endpointId, job.id, { queued: messages.length, position });
  }
  await updateReplayJob(msg.tenantId, msg.endpointId, job.id, { scanDone: true });
  logger.info('replay queued', { jobId: job.id, endpointId: msg.endpointId, events: missed.length });
}

async function handle(record: SQSRecord, context: Context): Promise<void> {
  const json = parseJson(record.body) as { kind?: unknown } | undefined;
  const parsed = json?.kind === 'replay' ? ReplayMessage.safeParse(json) : DeliveryMessage.safeParse(json);
  if (!parsed.success) {
    // It can never succeed; keep it for inspection rather than retrying it.
    logger.error('malformed delivery message', { messageId: record.messageId });
    return deadLetter(record, 'malformed message');
  }
  const msg = parsed.data;
  return 'kind' in msg ? runReplay(msg, context) : deliver(record, msg);
}

export const handler = async (event: SQSEvent, context: Context) => {
  logger.addContext(context);
  metrics.captureColdStartMetric(context.functionName);
  // A processor per invocation: it holds the batch's state, and local runs overlap invocations.
  // A batch whose every record failed is normal here (one receiver down), not an invocation error.
  return processPartialResponse(event, (r: SQSRecord) => handle(r, context), new BatchProcessor(EventType.SQS), {
    context,
    throwOnFullBatchFailure: false,
  });
};
