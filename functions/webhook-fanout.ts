/**
 * DynamoDB stream -> SQS. For each candidate or placement change, finds the tenant's active
 * endpoints subscribed to the events it stands for and enqueues one message per (event,
 * endpoint). A record whose messages cannot all be enqueued fails on its own and is retried
 * from there (batchItemFailures); event ids stay the same, so nothing is lost or renamed.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../lib/logger';
import { emitMetric, metrics } from '../lib/metrics';
import { ddbClient } from '../lib/store/client';
import { getTenant } from '../lib/store/tenants';
import { listEndpoints, type Endpoint } from '../lib/store/webhooks';
import { envelope, eventsFromRecord } from '../lib/webhooks/events';
import { queueConfig, sqs, type DeliveryMessage } from '../lib/webhooks/queue';
import { tracer } from '../lib/tracer';

// Each DynamoDB and SQS call of an invocation as an X-Ray subsegment (a no-op outside Lambda).
tracer.captureAWSv3Client(ddbClient);
tracer.captureAWSv3Client(sqs);

/** Tenant slugs never change; keep them for the life of the container. */
const slugs = new Map<string, Promise<string>>();
const slugOf = (tenantId: string) => {
  if (!slugs.has(tenantId)) {
    slugs.set(
      tenantId,
      getTenant(tenantId).then((t) => {
        if (!t) throw new Error(`tenant ${tenantId} not found`);
        return t.slug;
      }),
    );
    slugs.get(tenantId)!.catch(() => slugs.delete(tenantId));
  }
  return slugs.get(tenantId)!;
};

async function fanOut(record: DynamoDBRecord, endpointsOf: (tenantId: string) => Promise<Endpoint[]>) {
  const events = eventsFromRecord(record);
  if (!events.length) return { events: 0, messages: 0 };
  const tenantId = events[0]!.tenantId;
  const [slug, endpoints] = await Promise.all([slugOf(tenantId), endpointsOf(tenantId)]);
  const messages: DeliveryMessage[] = events.flatMap((e) => {
    const body = envelope(e, slug);
    return endpoints
      .filter((ep) => ep.active && (ep.events as string[]).includes(e.type))
      .map((ep) => ({ v: 1 as const, eventId: e.id, eventType: e.type, tenantId, endpointId: ep.id, body }));
  });
  for (let i = 0; i < messages.length; i += 10) {
    const batch = messages.slice(i, i + 10);
    const res = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueConfig.queueUrl,
        Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })),
      }),
    );
    if (res.Failed?.length) throw new Error(`SQS refused ${res.Failed.length} of ${batch.length} messages`);
  }
  logger.debug('fanned out', { event_ids: events.map((e) => e.id), messages: messages.length });
  return { events: events.length, messages: messages.length };
}

export const handler = async (event: DynamoDBStreamEvent, context: Context) => {
  logger.addContext(context);
  metrics.captureColdStartMetric(context.functionName);
  const fanned = { events: 0, messages: 0 };
  // One endpoint listing per tenant per batch.
  const cache = new Map<string, Promise<Endpoint[]>>();
  const endpointsOf = (tenantId: string) => {
    if (!cache.has(tenantId)) cache.set(tenantId, listEndpoints(tenantId));
    return cache.get(tenantId)!;
  };
  // Sequential, so a batch's messages are enqueued in stream order. Records after a failed one
  // still go out, and go out again when Lambda retries from the failure: at least once.
  // A processor per invocation: it holds the batch's state, and local runs overlap invocations.
  const result = await processPartialResponse(
    event,
    async (r: DynamoDBRecord) => {
      const n = await fanOut(r, endpointsOf);
      fanned.events += n.events;
      fanned.messages += n.messages;
    },
    new BatchProcessor(EventType.DynamoDBStreams),
    { context, processInParallel: false, throwOnFullBatchFailure: false },
  );
  // Events this batch's records stood for, and the messages queued for them (a record that is
  // retried counts again). Changes no event stands for (users, tokens) are not counted.
  if (fanned.events > 0) {
    logger.info('events fanned out', { count: fanned.events, messages: fanned.messages, failed_records: result.batchItemFailures.length });
    emitMetric('EventsFannedOut', fanned.events);
  }
  return result;
};
