/** Webhook endpoints: one item each in the tenant's webhook partition (`WH#<id>`). */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../errors';
import { newId, nowIso } from '../ids';
import { EVENT_TYPES, type EventType } from '../model';
import { ddb, prefixQuery, queryAll, tableName } from './client';
import { bool, type Item, listOf, num, optStr, str } from './codec';
import { keys } from './table';
import { unlessConditionFails } from './tx';
import { $ifNotExists, $increment, $remove, update } from './update';

export interface Endpoint {
  id: string;
  tenant_id: string;
  url: string;
  secret: string;
  events: EventType[];
  active: boolean;
  description: string | null;
  created_at: string;
  updated_at: string;
  last_triggered_at: string | null;
  /** Consecutive failed deliveries; reset by a success. */
  failure_count: number;
  /** When the current run of failures began. */
  failing_since: string | null;
  disabled_reason: string | null;
  /** Set by DELETE; a deleted endpoint never comes back. */
  deleted_at: string | null;
  /** The secret before the last rotation, signing too until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

const ENTITY = 'webhook';

/**
 * The event types that existed before the requisition events were added. An endpoint stored
 * before then with all of them was subscribed to "all" (the only way to get them all), so it
 * reads as an all-events endpoint and gets the types added since.
 */
const TYPES_BEFORE_REQUISITIONS: readonly EventType[] = EVENT_TYPES.filter((t) => !t.startsWith('requisition.'));

/**
 * An endpoint subscribed to every event type is an all-events endpoint: it is stored with
 * `all_events` and reads back with every type there is then, so event types added in a later
 * release reach it without an edit.
 */
const allEventsOf = (events: readonly EventType[]) => EVENT_TYPES.every((t) => events.includes(t));
const storedEvents = (i: Item): EventType[] => {
  const events = listOf(i, 'events', EVENT_TYPES, ENTITY);
  const all = i.all_events === true || (i.all_events === undefined && TYPES_BEFORE_REQUISITIONS.every((t) => events.includes(t)));
  return all ? [...EVENT_TYPES] : events;
};

/** The webhook endpoint item's codec. */
export const endpointFromItem = (i: Item): Endpoint => ({
  id: str(i, 'id', ENTITY),
  tenant_id: str(i, 'tenant_id', ENTITY),
  url: str(i, 'url', ENTITY),
  secret: str(i, 'secret', ENTITY),
  events: storedEvents(i),
  active: bool(i, 'active', ENTITY),
  description: optStr(i, 'description', ENTITY) ?? null,
  created_at: str(i, 'created_at', ENTITY),
  updated_at: str(i, 'updated_at', ENTITY),
  last_triggered_at: optStr(i, 'last_triggered_at', ENTITY) ?? null,
  failure_count: num(i, 'failure_count', ENTITY, 0),
  failing_since: optStr(i, 'failing_since', ENTITY) ?? null,
  disabled_reason: optStr(i, 'disabled_reason', ENTITY) ?? null,
  deleted_at: optStr(i, 'deleted_at', ENTITY) ?? null,
  previous_secret: optStr(i, 'previous_secret', ENTITY) ?? null,
  previous_secret_expires_at: optStr(i, 'previous_secret_expires_at', ENTITY) ?? null,
});

/** The previous secret while its grace window lasts, else undefined. */
export const previousSecret = (e: Endpoint, now = Date.now()): string | undefined =>
  e.previous_secret && e.previous_secret_expires_at && Date.parse(e.previous_secret_expires_at) > now ? e.previous_secret : undefined;

export async function putEndpoint(tenantId: string, e: Pick<Endpoint, 'url' | 'secret' | 'events' | 'description'>): Promise<Endpoint> {
  const now = nowIso();
  const endpoint: Endpoint = {
    id: newId(),
    tenant_id: tenantId,
    ...e,
    active: true,
    created_at: now,
    updated_at: now,
    last_triggered_at: null,
    failure_count: 0,
    failing_since: null,
    disabled_reason: null,
    deleted_at: null,
    previous_secret: null,
    previous_secret_expires_at: null,
  };
  await ddb.send(
    new PutCommand({
      TableName: tableName,
      // Absent, not NULL: if_not_exists(failing_since, …) must see no attribute to start a run.
      Item: {
        ...keys.webhook(tenantId, endpoint.id),
        type: 'webhook',
        ...Object.fromEntries(Object.entries(endpoint).filter(([, v]) => v !== null)),
        all_events: allEventsOf(endpoint.events),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return endpoint;
}

export async function getEndpoint(tenantId: string, id: string): Promise<Endpoint | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: keys.webhook(tenantId, id), ConsistentRead: true }));
  return Item ? endpointFromItem(Item) : undefined;
}

/** All of a tenant's endpoints, newest first. A tenant has few; one Query reads them all. */
export async function listEndpoints(tenantId: string): Promise<Endpoint[]> {
  const items = await queryAll(prefixQuery(keys.webhookPartition(tenantId), keys.webhookPrefix));
  return items.map(endpointFromItem);
}

type EndpointChanges = Partial<Pick<Endpoint, 'url' | 'events' | 'active' | 'description'>>;

/** The endpoint exists (never recreate one that is not there). */
const exists = { expression: 'attribute_exists(PK)' };

/** Apply changes to an existing endpoint; NotFoundError if the tenant has no such endpoint. */
export async function updateEndpoint(tenantId: string, id: string, changes: EndpointChanges): Promise<Endpoint> {
  // Reactivating starts afresh: no failure run, no reason it was disabled.
  const reactivating = changes.active === true && { failure_count: 0, failing_since: $remove(), disabled_reason: $remove() };
  try {
    const { Attributes } = await ddb.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.webhook(tenantId, id),
        ...update(
          { ...changes, ...(changes.events && { all_events: allEventsOf(changes.events) }), updated_at: nowIso(), ...reactivating },
          exists,
        ),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return endpointFromItem(Attributes!);
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw new NotFoundError('webhook');
    throw err;
  }
}

/**
 * A success on an endpoint that was not failing: only `last_triggered_at` moves, never backwards
 * (a delivery batch writes it once per endpoint after its records, maybe after a newer batch).
 */
export async function touchLastTriggered(tenantId: string, id: string, at: string): Promise<void> {
  await conditional(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.webhook(tenantId, id),
      UpdateExpression: 'SET last_triggered_at = :at',
      ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(last_triggered_at) OR last_triggered_at < :at)',
      ExpressionAttributeValues: { ':at': at },
    }),
  );
}

/** A delivered event: the failure run is over. Never recreates a deleted endpoint. */
export async function recordSuccess(tenantId: string, id: string, at: string): Promise<void> {
  await conditional(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.webhook(tenantId, id),
      ...update({ last_triggered_at: at, failure_count: 0, failing_since: $remove() }, exists),
    }),
  );
}

/**
 * A failed attempt: count it, start the failure run if none is open, and disable the endpoint
 * when `disable` names a reason.
 */
export async function recordFailure(tenantId: string, id: string, at: string, disable?: string): Promise<{ disabledNow: boolean }> {
  const res = await conditional(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.webhook(tenantId, id),
      ...update(
        {
          last_triggered_at: at,
          failure_count: $increment(1),
          failing_since: $ifNotExists(at),
          ...(disable && { active: false, disabled_reason: disable }),
        },
        exists,
      ),
      ReturnValues: 'UPDATED_OLD',
    }),
  );
  // UPDATED_OLD holds `active` only when this update changed it: this call disabled the endpoint.
  return { disabledNow: !!disable && res?.Attributes?.active === true };
}

/** Soft delete: inactive, `disabled_reason` "deleted", kept with its log. */
export async function markDeleted(tenantId: string, id: string): Promise<void> {
  const now = nowIso();
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.webhook(tenantId, id),
        ...update({ active: false, disabled_reason: 'deleted', deleted_at: $ifNotExists(now), updated_at: now }, exists),
      }),
    );
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw new NotFoundError('webhook');
    throw err;
  }
}

/**
 * Replace the secret; the old one stays as `previous_secret` until `previousExpiresAt` (none when
 * null). A rotation inside a grace window drops the older secret: at most two sign at once.
 */
export async function rotateSecret(tenantId: string, id: string, secret: string, previousExpiresAt: string | null): Promise<boolean> {
  const res = await conditional(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.webhook(tenantId, id),
      // Written by hand: `previous_secret = secret` copies an attribute, which the helper does
      // not express. Operands read the item as it was before this update.
      UpdateExpression: previousExpiresAt
        ? 'SET previous_secret = secret, previous_secret_expires_at = :exp, secret = :new, updated_at = :now'
        : 'SET secret = :new, updated_at = :now REMOVE previous_secret, previous_secret_expires_at',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleted_at)',
      ExpressionAttributeValues: { ':new': secret, ':now': nowIso(), ...(previousExpiresAt && { ':exp': previousExpiresAt }) },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return res !== undefined;
}

/** Updates that find the endpoint deleted meanwhile do nothing. */
const conditional = (cmd: UpdateCommand) => unlessConditionFails(ddb.send(cmd));
