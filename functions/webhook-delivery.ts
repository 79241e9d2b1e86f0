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
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../lib/logger';
import { emitMetric, invocationMetrics, metrics, MetricUnit } from '../lib/metrics';
import { ENDPOINT_DISABLED_EVENT } from '../lib/model';
import {
  getEndpoint,
  listEndpoints,
  previousSecret,
  recordFailure,
  recordSuccess,
  touchLastTriggered,
  type Endpoint,
} from '../lib/store/webhook-endpoints';
import { attemptItem, attemptOutcomes, putAttempt } from '../lib/store/webhook-attempts';
import { eventItem, getEvent, putEvent, writeLogItems } from '../lib/store/webhook-events';
import { getReplayJob, updateReplayJob } from '../lib/store/replay-jobs';
import { retryDelayS, webhookConfig, maxAttempts } from '../lib/webhooks/config';
import { envelope } from '../lib/webhooks/events';
import { errorCategory } from '../lib/webhooks/outcome';
import { missedEvents } from '../lib/webhooks/replay';
import { DeliveryMessage, enqueue, queueConfig, ReplayMessage, sqs } from '../lib/webhooks/queue';
import { sendWebhook } from '../lib/webhooks/send';
import { deliveryHeaders } from '../lib/webhooks/sign';

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
  // Kept once here, not by each of the deliveries.
  await putEvent(msg.tenantId, { event_id: id, event_type: ENDPOINT_DISABLED_EVENT, body });
  await enqueue(
    others.map((e) => ({ v: 1 as const, eventId: id, eventType: ENDPOINT_DISABLED_EVENT, tenantId: msg.tenantId, endpointId: e.id, body, kept: true as const })),
  );
}

/**
 * What one invocation shares between its records (profiled with `npm run bench`: four table
 * calls per delivery were most of its time): each endpoint is read once; the successes' attempt
 * records and kept bodies are written together at the end (BatchWriteItem, 25 per call); and the
 * `last_triggered_at` of a healthy endpoint is written once, after them. Failures keep their
 * per-attempt writes in order (attempt, then counters), so failure counts stay exact.
 */
class BatchState {
  private endpoints = new Map<string, Promise<Endpoint | undefined>>();
  /** The batch's per-delivery metrics, written as one EMF line at the end of the invocation. */
  readonly metrics = invocationMetrics();
  /** Log items of successful deliveries, by the message they record. */
  readonly logs = new Map<string, { items: Record<string, unknown>[]; tenantId: string; endpointId: string; at: string; replay?: DeliveryMessage }>();

  endpoint(tenantId: string, endpointId: string) {
    const key = `${tenantId}/${endpointId}`;
    if (!this.endpoints.has(key)) this.endpoints.set(key, getEndpoint(tenantId, endpointId));
    return this.endpoints.get(key)!;
  }

  /**
   * Write the successes' logs; the records whose logs could not be written are returned, to be
   * reported as failed (SQS hands them out again: at least once, with the same webhook-id). Then
   * move each healthy endpoint's last_triggered_at once, to its latest success.
   */
  async flush(): Promise<string[]> {
    const entries = [...this.logs];
    if (!entries.length) return [];
    const unwritten = new Set(await writeLogItems(entries.flatMap(([, l]) => l.items)));
    const lost = entries.filter(([, l]) => l.items.some((i) => unwritten.has(i))).map(([id]) => id);
    const latest = new Map<string, { tenantId: string; endpointId: string; at: string }>();
    for (const [id, l] of entries) {
      if (lost.includes(id)) continue;
      const key = `${l.tenantId}/${l.endpointId}`;
      if ((latest.get(key)?.at ?? '') < l.at) latest.set(key, l);
    }
    // A lost timestamp costs a stale last_triggered_at, never an attempt or a count: logged only.
    await Promise.all(
      [...latest.values()].map((l) =>
        touchLastTriggered(l.tenantId, l.endpointId, l.at).catch((err: Error) =>
          logger.error('last_triggered_at not recorded', { endpointId: l.endpointId, error: { name: err.name, message: err.message } }),
        ),
      ),
    );
    await Promise.all(entries.filter(([id, l]) => l.replay && !lost.includes(id)).map(([, l]) => replayFinished(l.replay!, true)));
    if (lost.length) logger.error('delivery log not written; deliveries will be retried', { count: lost.length });
    return lost;
  }
}

async function deliver(record: SQSRecord, msg: DeliveryMessage, batch: BatchState): Promise<void> {
  const attempt = (msg.attemptsBefore ?? 0) + (Number(record.attributes.ApproximateReceiveCount) || 1);
  const endpoint = await batch.endpoint(msg.tenantId, msg.endpointId);
  if (!endpoint?.active) {
    logger.info('endpoint gone or disabled; event dropped', { eventId: msg.eventId, endpointId: msg.endpointId });
    await replayFinished(msg, false);
    return;
  }
  // Keep the body for resend and replay (32 days, longer than the attempts), unless whoever queued
  // the message just did (the fan-out, once per event). A resend or replay series writes it again,
  // so the body outlives that series' attempts too. Once per series is enough.
  const kept = attempt === 1 && !msg.kept ? eventItem(msg.tenantId, { event_id: msg.eventId, event_type: msg.eventType, body: msg.body }) : undefined;

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
  batch.metrics.add('DeliveryAttempt', attempt);
  batch.metrics.add('DeliveryLatency', result.durationMs, MetricUnit.Milliseconds);
  if (category === null) {
    logger.debug('delivery succeeded', outcome);
    batch.metrics.add('DeliveriesSucceeded');
    const logged = attemptItem(msg.tenantId, endpoint.id, { ...base, success: true, next_attempt_at: null, dead_lettered: false }, series);
    if (endpoint.failure_count || endpoint.failing_since) {
      // A failing endpoint's run ends now (failure_count back to 0): in order, at once.
      await writeLogItems(kept ? [logged, kept] : [logged]).then((left) => {
        if (left.length) throw new Error('delivery log not written');
      });
      await recordSuccess(msg.tenantId, endpoint.id, at);
      await replayFinished(msg, true);
      return;
    }
    batch.logs.set(record.messageId, { items: kept ? [logged, kept] : [logged], tenantId: msg.tenantId, endpointId: endpoint.id, at, replay: msg.replayJob ? msg : undefined });
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
    // Not `kept`: each replayed event's first attempt writes its body again (a fresh 32 days).
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

async function handle(record: SQSRecord, context: Context, batch: BatchState): Promise<void> {
  const json = parseJson(record.body) as { kind?: unknown } | undefined;
  const parsed = json?.kind === 'replay' ? ReplayMessage.safeParse(json) : DeliveryMessage.safeParse(json);
  if (!parsed.success) {
    // It can never succeed; keep it for inspection rather than retrying it.
    logger.error('malformed delivery message', { messageId: record.messageId });
    return deadLetter(record, 'malformed message');
  }
  const msg = parsed.data;
  return 'kind' in msg ? runReplay(msg, context) : deliver(record, msg, batch);
}

export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  logger.addContext(context);
  metrics.captureColdStartMetric(context.functionName);
  // A processor per invocation: it holds the batch's state, and local runs overlap invocations.
  // A batch whose every record failed is normal here (one receiver down), not an invocation error.
  const batch = new BatchState();
  try {
    const response = await processPartialResponse(event, (r: SQSRecord) => handle(r, context, batch), new BatchProcessor(EventType.SQS), {
      context,
      throwOnFullBatchFailure: false,
    });
    const lost = await batch.flush();
    return { batchItemFailures: [...response.batchItemFailures, ...lost.map((itemIdentifier) => ({ itemIdentifier }))] };
  } finally {
    batch.metrics.flush();
  }
};
