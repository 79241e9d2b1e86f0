/** Webhook endpoints: one item each in the tenant's webhook partition (`WH#<id>`), and the count of the active ones (`COUNTS`). */
import { auditPuts, type AuditEntry } from './audit';
import { GetCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newId, nowIso } from '../ids';
import { EVENT_TYPES, type EventType } from '../model';
import { ddb, prefixQuery, queryAll, tableName } from './client';
import { bool, type Item, listOf, num, optStr, str } from './codec';
import { counter, keys } from './table';
import { backoff, MAX_ATTEMPTS, unlessConditionFails, writeParts, type TxOutcome, type TxPart } from './tx';
import { $add, $ifNotExists, $increment, $remove, type Condition, update } from './update';

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

/** A new active endpoint, not yet written (writeNewEndpoint). */
export function newEndpoint(tenantId: string, e: Pick<Endpoint, 'url' | 'secret' | 'events' | 'description'>, id = newId()): Endpoint {
  const now = nowIso();
  return {
    id,
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
}

/** The parts of an endpoint write: the endpoint, the workspace's active count, the audit intent. */
export type EndpointParts = 'endpoint' | 'count' | 'audit';

/**
 * Write a new active endpoint with the active count moved in the same transaction. Refused by
 * `count` when the workspace has MAX_ACTIVE_ENDPOINTS already (the domain answers the cap).
 */
export function writeNewEndpoint(tenantId: string, endpoint: Endpoint, audit?: AuditEntry): Promise<TxOutcome<EndpointParts>> {
  const put = {
    TableName: tableName(),
    // Absent, not NULL: if_not_exists(failing_since, …) must see no attribute to start a run.
    Item: {
      ...keys.webhook(tenantId, endpoint.id),
      type: 'webhook',
      ...Object.fromEntries(Object.entries(endpoint).filter(([, v]) => v !== null)),
      all_events: allEventsOf(endpoint.events),
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  };
  return countedWrite(tenantId, { Put: put }, 1, audit && auditPuts(tenantId, audit));
}

export async function getEndpoint(tenantId: string, id: string): Promise<Endpoint | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.webhook(tenantId, id), ConsistentRead: true }));
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

/**
 * Apply changes to the endpoint `current` describes, on condition that it still is so (not
 * deleted, switched on or off as read): refused by `endpoint` otherwise, with the item as it is
 * now. Switching it on or off moves the active count in the same transaction (refused by `count`
 * at the cap). `endpoint` is the endpoint as this write leaves it.
 */
export async function updateEndpoint(
  tenantId: string,
  current: Endpoint,
  changes: EndpointChanges,
  audit?: AuditEntry,
): Promise<{ outcome: TxOutcome<EndpointParts>; endpoint: Endpoint }> {
  const at = nowIso();
  // Reactivating starts afresh: no failure run, no reason it was disabled.
  const reactivating = changes.active === true;
  const parts = update(
    {
      ...changes,
      ...(changes.events && { all_events: allEventsOf(changes.events) }),
      updated_at: at,
      ...(reactivating && { failure_count: 0, failing_since: $remove(), disabled_reason: $remove() }),
    },
    // As read: so that of two writes that switch it on (or off), one counts and the other reads again.
    { expression: 'attribute_exists(PK) AND attribute_not_exists(deleted_at) AND active = :was', values: { ':was': current.active } },
  );
  const Key = keys.webhook(tenantId, current.id);
  const delta = changes.active === undefined || changes.active === current.active ? 0 : changes.active ? 1 : -1;
  const audits = audit && auditPuts(tenantId, audit);
  const endpoint = { Update: { TableName: tableName(), Key, ...parts, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } };
  const outcome = delta
    ? await countedWrite(tenantId, endpoint, delta, audits)
    : await writeParts<EndpointParts>({ endpoint, count: undefined, audit: audits });
  // A transaction answers no item: the endpoint as this write left it.
  return {
    outcome,
    endpoint: {
      ...current,
      ...changes,
      updated_at: at,
      ...(reactivating && { failure_count: 0, failing_since: null, disabled_reason: null }),
    },
  };
}

/**
 * A success on an endpoint that was not failing: only `last_triggered_at` moves, never backwards
 * (a delivery batch writes it once per endpoint after its records, maybe after a newer batch).
 */
export async function touchLastTriggered(tenantId: string, id: string, at: string): Promise<void> {
  await conditional(
    new UpdateCommand({
      TableName: tableName(),
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
      TableName: tableName(),
      Key: keys.webhook(tenantId, id),
      ...update({ last_triggered_at: at, failure_count: 0, failing_since: $remove() }, exists),
    }),
  );
}

/**
 * A failed attempt: count it, start the failure run if none is open, and disable the endpoint
 * when `disable` names a reason (moving the active count with it). `disabledNow` is true when
 * this call disabled it; one a user or another failure switched off already stays as it is.
 */
export async function recordFailure(tenantId: string, id: string, at: string, disable?: string): Promise<{ disabledNow: boolean }> {
  const Key = keys.webhook(tenantId, id);
  const failure = { last_triggered_at: at, failure_count: $increment(1), failing_since: $ifNotExists(at) };
  if (disable) {
    const disabling: TransactItem = {
      Update: {
        TableName: tableName(),
        Key,
        ...update({ ...failure, active: false, disabled_reason: disable }, isActive(true)),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    };
    // Nothing to decide but the lost races: the endpoint switched off already (or gone) is an answer.
    for (let attempt = 1; ; attempt++) {
      const outcome = await countedWrite(tenantId, disabling, -1);
      if ('written' in outcome) return { disabledNow: true };
      if ('refused' in outcome) {
        if (!outcome.seen) return { disabledNow: false };
        break;
      }
      if (attempt >= MAX_ATTEMPTS) throw new Error('webhook endpoint count: too many concurrent writes');
      await backoff(attempt);
    }
  }
  await conditional(new UpdateCommand({ TableName: tableName(), Key, ...update(failure, exists) }));
  return { disabledNow: false };
}

/**
 * Soft delete: inactive, `disabled_reason` "deleted", kept with its log. `active` is whether the
 * endpoint was active as last seen (most deletes are of an active one, so that is assumed
 * unread): deleting an active endpoint moves the active count in the same transaction. Refused
 * by `endpoint` when it is not so, with the item as it is (none: it is not there).
 */
export function markDeleted(tenantId: string, id: string, active: boolean, audit?: AuditEntry): Promise<TxOutcome<EndpointParts>> {
  const now = nowIso();
  const Key = keys.webhook(tenantId, id);
  const changes = { active: false, disabled_reason: 'deleted', deleted_at: $ifNotExists(now), updated_at: now };
  const endpoint = {
    Update: { TableName: tableName(), Key, ...update(changes, isActive(active)), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const },
  };
  const audits = audit && auditPuts(tenantId, audit);
  return active ? countedWrite(tenantId, endpoint, -1, audits) : writeParts<EndpointParts>({ endpoint, count: undefined, audit: audits });
}

/**
 * Replace the secret; the old one stays as `previous_secret` until `previousExpiresAt` (none when
 * null). A rotation inside a grace window drops the older secret: at most two sign at once.
 * Refused by `endpoint` when it is gone or deleted.
 */
export function rotateSecret(
  tenantId: string,
  id: string,
  secret: string,
  previousExpiresAt: string | null,
  audit?: AuditEntry,
): Promise<TxOutcome<EndpointParts>> {
  const rotate = {
    Update: {
      TableName: tableName(),
      Key: keys.webhook(tenantId, id),
      // Written by hand: `previous_secret = secret` copies an attribute, which the helper does
      // not express. Operands read the item as it was before this update.
      UpdateExpression: previousExpiresAt
        ? 'SET previous_secret = secret, previous_secret_expires_at = :exp, secret = :new, updated_at = :now'
        : 'SET secret = :new, updated_at = :now REMOVE previous_secret, previous_secret_expires_at',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleted_at)',
      ExpressionAttributeValues: { ':new': secret, ':now': nowIso(), ...(previousExpiresAt && { ':exp': previousExpiresAt }) },
    },
  };
  return writeParts<EndpointParts>({ endpoint: rotate, count: undefined, audit: audit && auditPuts(tenantId, audit) });
}

/** Updates that find the endpoint deleted meanwhile do nothing. */
const conditional = (cmd: UpdateCommand) => unlessConditionFails(ddb.send(cmd));

// ---- the active-endpoint count ---------------------------------------------------------------

/**
 * Active endpoints per workspace. Each event becomes one delivery per endpoint, so the cap
 * bounds what one workspace can make us send (and the endpoint listing the fan-out reads).
 */
export const MAX_ACTIVE_ENDPOINTS = 20;

const ACTIVE = counter.activeEndpoints;

/** The endpoint exists and is (or is not) active. */
const isActive = (active: boolean): Condition => ({
  expression: 'attribute_exists(PK) AND active = :active',
  values: { ':active': active },
});

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The count's part of a write that switches an endpoint on or off. It must exist (see
 * countedWrite); going up, it must stay within the cap.
 */
function countMove(tenantId: string, delta: 1 | -1): TransactItem {
  const names = { '#active': ACTIVE };
  return {
    Update: {
      TableName: tableName(),
      Key: keys.webhookCounts(tenantId),
      ...update(
        { [ACTIVE]: $add(delta) },
        delta > 0
          ? { expression: 'attribute_exists(#active) AND #active < :max', names, values: { ':max': MAX_ACTIVE_ENDPOINTS } }
          : { expression: 'attribute_exists(#active)', names },
      ),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * Write `endpoint` (an action on the endpoint item, with ALL_OLD on a failed condition) and move
 * the workspace's active count by `delta`, in one transaction: the count always equals the active
 * endpoints, so its condition makes the cap exact however many writers race. Refused by
 * `endpoint` when the endpoint's own condition failed, by `count` when the cap is reached.
 *
 * A workspace from before the count has no count yet: the first counted write that finds none
 * derives it (initActiveCount) and answers a lost race, so the caller tries again.
 */
async function countedWrite(tenantId: string, endpoint: TransactItem, delta: 1 | -1, audits?: TxPart): Promise<TxOutcome<EndpointParts>> {
  const outcome = await writeParts<EndpointParts>({ endpoint, count: countMove(tenantId, delta), audit: audits });
  if ('refused' in outcome && outcome.refused === 'count') {
    if (outcome.seen?.[ACTIVE] === undefined) {
      await initActiveCount(tenantId);
      return { conflict: true };
    }
    // Only a write that adds to the count can find it at the cap.
    if (delta < 0) throw new Error('the active endpoint count refused a decrement');
  }
  return outcome;
}

/**
 * Store the count of the workspace's active endpoints if it has none: one consistent Query of its
 * endpoints and a write on condition that the count is still missing. Exact even while endpoints
 * change: every write that switches one on or off requires the count to exist, so none lands
 * between the read and the write; a writer that finds it missing derives it too, and one of the
 * two writes stores it. Answers the count as stored.
 */
async function initActiveCount(tenantId: string): Promise<number> {
  const items = await queryAll({
    ...prefixQuery(keys.webhookPartition(tenantId), keys.webhookPrefix),
    ProjectionExpression: 'active',
    ConsistentRead: true,
  });
  const active = items.filter((i) => i.active === true).length;
  const stored = await conditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.webhookCounts(tenantId),
      ...update(
        { type: 'webhook_counts', [ACTIVE]: active },
        { expression: 'attribute_not_exists(#active)', names: { '#active': ACTIVE } },
      ),
      ReturnValues: 'ALL_NEW',
    }),
  );
  // Another writer derived it first, from the same endpoints.
  return stored ? Number(stored.Attributes![ACTIVE]) : ((await getActiveCount(tenantId)) ?? active);
}

/**
 * Derive the count afresh from the endpoints (the admin CLI's repair, e.g. after endpoints were
 * written by a release from before the count): drop it, then initActiveCount. Writes in between
 * find no count and derive it themselves, so whichever write stores it stores the exact number.
 */
export async function recountActiveEndpoints(tenantId: string): Promise<number> {
  await ddb.send(new UpdateCommand({ TableName: tableName(), Key: keys.webhookCounts(tenantId), ...update({ [ACTIVE]: $remove() }) }));
  return initActiveCount(tenantId);
}

/** The stored count of active endpoints; undefined before it is first derived. */
export async function getActiveCount(tenantId: string): Promise<number | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.webhookCounts(tenantId), ConsistentRead: true }));
  return Item?.[ACTIVE] === undefined ? undefined : Number(Item[ACTIVE]);
}
