/**
 * Kept event bodies: an event's exact envelope, one item per event and tenant in the webhook
 * partition (`EVT#<eventId>`), shared by all its endpoints, so resend and replay send what the
 * first delivery signed. Also the one batch write of the delivery log (attempts and bodies).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { type Item, num, optStr, str } from './codec';
import { COPY_OF, putGuarded } from './copies';
import { keys, TABLE_DEF } from './table';
import { ATTEMPT_TTL_S } from './webhook-attempts';

export interface StoredEvent {
  event_id: string;
  event_type: string;
  /** The exact envelope every delivery of the event sends and signs; empty once its candidate was erased. */
  body: string;
  stored_at: string;
  /** Its candidate was erased: the body is gone, and nothing sends the event again. */
  erased_at?: string;
}

/**
 * The candidate whose personal data an event's body carries (candidate, offer and placement
 * events). None for `candidate.erased` (its `id` alone) or for a change made after the erasure
 * (its name is empty): those carry none. The body is the envelope `{ event, data, ... }`.
 */
export function candidateOfBody(body: string): string | undefined {
  try {
    const data = (JSON.parse(body) as { data?: { candidateId?: unknown; name?: unknown } })?.data;
    return typeof data?.candidateId === 'string' && data.name !== '' ? data.candidateId : undefined;
  } catch {
    return undefined;
  }
}

const ENTITY = 'webhook_event';

/** The kept event item's codec. */
export const storedEventFromItem = (i: Item): StoredEvent => {
  const erased_at = optStr(i, 'erased_at', ENTITY);
  return {
    event_id: str(i, 'event_id', ENTITY),
    event_type: str(i, 'event_type', ENTITY),
    body: erased_at ? '' : str(i, 'body', ENTITY),
    stored_at: str(i, 'stored_at', ENTITY),
    ...(erased_at && { erased_at }),
  };
};

/**
 * Event bodies outlive every attempt of their event: the last retry comes up to ~28 hours after
 * the first attempt, and the body is stored just before it (by the fan-out), or by the first
 * attempt of a resend or replay series.
 */
const EVENT_TTL_S = ATTEMPT_TTL_S + 2 * 86_400;

/**
 * The kept body of an event for EVENT_TTL_S from `now` (putEvent writes it; a delivery batch
 * writes many in one call). Idempotent: the same event has the same body.
 */
export function eventItem(tenantId: string, e: { event_id: string; event_type: string; body: string }, now = Date.now()) {
  const candidateId = candidateOfBody(e.body);
  return {
    ...keys.event(tenantId, e.event_id),
    // A copy of its candidate's personal data: written with its ledger entry, unless erased (lib/store/copies.ts).
    ...(candidateId ? { [COPY_OF]: candidateId } : {}),
    type: 'webhook_event',
    ...e,
    stored_at: new Date(now).toISOString(),
    [TABLE_DEF.ttlAttribute]: Math.floor(now / 1000) + EVENT_TTL_S,
  };
}

/** Keep one event's body; a body naming a candidate since erased is not kept. Throws when it could not be written. */
export async function putEvent(tenantId: string, e: { event_id: string; event_type: string; body: string }): Promise<void> {
  const Item = eventItem(tenantId, e);
  if (Item[COPY_OF] === undefined) return void (await ddb.send(new PutCommand({ TableName: tableName(), Item })));
  if ((await putGuarded([Item])).unwritten.length) throw new Error('event body not kept');
}

/**
 * Keep the body of an event the service makes itself, which names no candidate (a test event): a
 * plain put, without the guarded write's code in the bundle of the route that sends it.
 */
export async function putServiceEvent(tenantId: string, e: { event_id: string; event_type: string; body: string }): Promise<void> {
  const Item = eventItem(tenantId, e);
  if (Item[COPY_OF] !== undefined) throw new Error('an event naming a candidate is kept by putEvent');
  await ddb.send(new PutCommand({ TableName: tableName(), Item }));
}

/** Whether the candidate was erased (its marker, lib/store/erasure.ts): one GetItem. */
export async function candidateErased(tenantId: string, candidateId: string): Promise<boolean> {
  const { Item } = await ddb.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.erasedMarker(tenantId, candidateId),
      ConsistentRead: true,
      ProjectionExpression: 'PK',
    }),
  );
  return Boolean(Item);
}

export async function getEvent(tenantId: string, eventId: string): Promise<StoredEvent | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.event(tenantId, eventId) }));
  // TTL deletion lags: an expired item may still be there for a while.
  if (!Item || num(Item, TABLE_DEF.ttlAttribute, ENTITY, Infinity) * 1000 < Date.now()) return undefined;
  return storedEventFromItem(Item);
}

/**
 * Write delivery-log items (attempts, kept event bodies) together: copies of a candidate's data
 * on condition that it was not erased, with their ledger entries (lib/store/copies.ts, putGuarded).
 * Resolves to the items that could not be written (none normally): the caller must treat their
 * deliveries as not recorded. A copy refused because its candidate was erased counts as written.
 */
export const writeLogItems = async (items: Item[]): Promise<Item[]> => (await putGuarded(items)).unwritten;
