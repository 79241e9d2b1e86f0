/**
 * DynamoDB stream -> SQS. For each candidate or placement change, finds the tenant's active
 * endpoints subscribed to the events it stands for and enqueues one message per (event,
 * endpoint). A record whose messages cannot all be enqueued fails on its own and is retried
 * from there (batchItemFailures); event ids stay the same, so nothing is lost or renamed.
 *
 * Each event that has a message is kept first (its body, for resend and replay, 32 days): once
 * per event rather than once per endpoint by each delivery, and for the whole stream batch in one
 * round of writes. A body that names a candidate is a copy of its data: written with its ledger
 * entry, on condition that the candidate has no erasure marker (lib/store/copies.ts). A record
 * whose candidate was erased since its change sends nothing and keeps nothing; a record whose
 * bodies could not be written sends nothing and fails, so no message goes out for an event that
 * is not kept.
 */
import { queueInvitation } from '../invitations/queue';
import type { BatchRules } from '../lambda';
import { logger } from '../logger';
import { emitMetric } from '../metrics';
import type { StreamChange } from '../records';
import { putGuarded } from '../store/copies';
import { getTenant } from '../store/tenants';
import { listEndpoints, type Endpoint } from '../store/webhook-endpoints';
import { eventItem } from '../store/webhook-events';
import { envelope, eventsFromChange, type WebhookEvent } from './events';
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

/** What one table change stands for: its events, and the messages to send for them. */
export interface FanoutPlan {
  events: WebhookEvent[];
  messages: DeliveryMessage[];
  /** The kept bodies of the events that have at least one message. */
  kept: Record<string, unknown>[];
}

export async function fanoutPlan(change: StreamChange, endpointsOf: (tenantId: string) => Promise<Endpoint[]>): Promise<FanoutPlan> {
  const events = eventsFromChange(change);
  if (!events.length) return { events, messages: [], kept: [] };
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

interface FanoutBatch {
  plans: Map<StreamChange, Promise<FanoutPlan>>;
  unwritten: Set<Record<string, unknown>>;
  erased: Set<Record<string, unknown>>;
  fanned: { events: number; messages: number };
}

/**
 * A batch of table changes -> delivery messages, one change failing on its own
 * (functions/webhook-fanout.ts runs it with streamHandler, lib/lambda.ts). A throw before the
 * records run (the bodies' write) fails the invocation, and the stream bisects the batch.
 */
export const webhookFanout: BatchRules<StreamChange, FanoutBatch> = {
  // Sent record by record, in stream order. Records after a failed one still go out, and go out
  // again when Lambda retries from the failure: at least once.
  inOrder: true,
  async prepare(changes) {
    // One endpoint listing per tenant per batch.
    const cache = new Map<string, Promise<Endpoint[]>>();
    const endpointsOf = (tenantId: string) => {
      if (!cache.has(tenantId)) cache.set(tenantId, listEndpoints(tenantId));
      return cache.get(tenantId)!;
    };
    // Plan every change first (endpoints read once per tenant), then keep all their bodies at once.
    const plans = new Map(changes.map((c) => [c, fanoutPlan(c, endpointsOf)]));
    const settled = await Promise.all(
      [...plans.values()].map((p) =>
        p.then(
          (v) => v,
          () => undefined,
        ),
      ),
    );
    // Whether each candidate was erased since its change is decided in the same write.
    const kept = await putGuarded(settled.flatMap((p) => p?.kept ?? []));
    return { plans, unwritten: new Set(kept.unwritten), erased: new Set(kept.erased), fanned: { events: 0, messages: 0 } };
  },
  async record(change, { plans, unwritten, erased, fanned }) {
    const p = await plans.get(change)!;
    if (p.kept.some((i) => unwritten.has(i))) throw new Error('event bodies not kept; the record is retried');
    // A change made before its candidate was erased, fanned out after: nothing is kept or sent.
    if (p.kept.some((i) => erased.has(i))) {
      logger.info('candidate erased; events not fanned out', { event_ids: p.events.map((e) => e.id) });
      return;
    }
    await enqueue(p.messages);
    // An interview change is also mail: its calendar invitations go to their own queue and worker.
    await queueInvitation(change);
    logger.debug('fanned out', { event_ids: p.events.map((e) => e.id), messages: p.messages.length });
    fanned.events += p.events.length;
    fanned.messages += p.messages.length;
  },
  async finish({ fanned }, failed) {
    // Events this batch's records stood for, and the messages queued for them (a record that is
    // retried counts again). Changes no event stands for (users, tokens) are not counted.
    if (fanned.events > 0) {
      logger.info('events fanned out', { count: fanned.events, messages: fanned.messages, failed_records: failed.length });
      emitMetric('EventsFannedOut', fanned.events);
    }
    return undefined;
  },
};
