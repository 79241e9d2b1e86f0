/**
 * DynamoDB stream -> SQS. For each candidate or placement change, finds the tenant's active
 * endpoints subscribed to the events it stands for and enqueues one message per (event,
 * endpoint). A record whose messages cannot all be enqueued fails on its own and is retried
 * from there (batchItemFailures); event ids stay the same, so nothing is lost or renamed.
 *
 * Each event that has a message is kept first (its body, for resend and replay, 32 days): once
 * per event rather than once per endpoint by each delivery, and for the whole stream batch in one
 * round of BatchWriteItem calls. A record whose bodies could not be written sends nothing and
 * fails, so no message goes out for an event that is not kept.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../logger';
import { emitMetric } from '../metrics';
import { erasedAmong } from '../store/erasure';
import { getTenant } from '../store/tenants';
import { listEndpoints, type Endpoint } from '../store/webhook-endpoints';
import { eventItem, writeLogItems } from '../store/webhook-events';
import { envelope, eventsFromRecord, type WebhookEvent } from './events';
import { enqueue, type DeliveryMessage } from './queue';

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

const newImage = (r: DynamoDBRecord) => r.dynamodb?.NewImage as Record<string, { S?: string } | undefined> | undefined;
/**
 * The candidate whose personal data a record's events carry (a candidate or a placement written
 * before an erasure); none for an erased image, whose events carry none.
 */
function subjectOf(r: DynamoDBRecord): string | undefined {
  const i = newImage(r);
  if (!i || i.erased_at) return undefined;
  if (i.type?.S === 'candidate') return i.id?.S;
  // A placement of a candidate already erased carries an empty name: nothing to hold back.
  if (i.type?.S === 'placement') return i.candidate_name?.S ? i.candidate_id?.S : undefined;
  return undefined;
}
const tenantOfRecord = (r: DynamoDBRecord) => newImage(r)?.tenant_id?.S;

/** What one stream record stands for: its events, and the messages to send for them. */
export interface FanoutPlan {
  events: WebhookEvent[];
  messages: DeliveryMessage[];
  /** The kept bodies of the events that have at least one message. */
  kept: Record<string, unknown>[];
}

export async function fanoutPlan(
  record: DynamoDBRecord,
  endpointsOf: (tenantId: string) => Promise<Endpoint[]>,
  erased: (tenantId: string, candidateId: string) => Promise<boolean> = async () => false,
): Promise<FanoutPlan> {
  const events = eventsFromRecord(record);
  if (!events.length) return { events, messages: [], kept: [] };
  // A change made before its candidate was erased, fanned out after: nothing is kept or sent.
  const subject = subjectOf(record);
  if (subject && (await erased(events[0]!.tenantId, subject))) return { events: [], messages: [], kept: [] };
  const tenantId = events[0]!.tenantId;
  const [slug, endpoints] = await Promise.all([slugOf(tenantId), endpointsOf(tenantId)]);
  const messages: DeliveryMessage[] = [];
  const kept: Record<string, unknown>[] = [];
  for (const e of events) {
    const body = envelope(e, slug);
    const to = endpoints.filter((ep) => ep.active && (ep.events as string[]).includes(e.type));
    if (!to.length) continue;
    kept.push(eventItem(tenantId, { event_id: e.id, event_type: e.type, body }));
    for (const ep of to) messages.push({ v: 1, eventId: e.id, eventType: e.type, tenantId, endpointId: ep.id, body, kept: true });
  }
  return { events, messages, kept };
}

/** A batch of stream records -> delivery messages, one record failing on its own. */
export async function webhookFanout(event: DynamoDBStreamEvent, context: Context) {
  const fanned = { events: 0, messages: 0 };
  // One endpoint listing per tenant per batch.
  const cache = new Map<string, Promise<Endpoint[]>>();
  const endpointsOf = (tenantId: string) => {
    if (!cache.has(tenantId)) cache.set(tenantId, listEndpoints(tenantId));
    return cache.get(tenantId)!;
  };
  // Whether the batch's candidates were erased since: read once per batch, a GetItem per distinct candidate, all at once.
  const subjects = event.Records.flatMap((r) => {
    const id = subjectOf(r);
    const tenantId = id && tenantOfRecord(r);
    return id && tenantId ? [{ tenantId, candidateId: id }] : [];
  });
  const erasedSet = subjects.length ? erasedAmong(subjects) : Promise.resolve(new Set<string>());
  const erased = async (tenantId: string, candidateId: string) => (await erasedSet).has(`${tenantId}/${candidateId}`);
  // Plan every record first (endpoints read once per tenant), then keep all their bodies at once.
  const plans = new Map(event.Records.map((r) => [r, fanoutPlan(r, endpointsOf, erased)]));
  const settled = await Promise.all(
    [...plans.values()].map((p) =>
      p.then(
        (v) => v,
        () => undefined,
      ),
    ),
  );
  const unwritten = new Set(await writeLogItems(settled.flatMap((p) => p?.kept ?? [])));
  // Then send, record by record and in stream order. Records after a failed one still go out,
  // and go out again when Lambda retries from the failure: at least once.
  // A processor per invocation: it holds the batch's state, and local runs overlap invocations.
  const result = await processPartialResponse(
    event,
    async (r: DynamoDBRecord) => {
      const p = await plans.get(r)!;
      if (p.kept.some((i) => unwritten.has(i))) throw new Error('event bodies not kept; the record is retried');
      await enqueue(p.messages);
      logger.debug('fanned out', { event_ids: p.events.map((e) => e.id), messages: p.messages.length });
      fanned.events += p.events.length;
      fanned.messages += p.messages.length;
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
}
