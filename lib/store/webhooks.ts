/** Webhook endpoints and delivery attempts, in the tenant's webhook partition. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { NotFoundError } from '../errors';
import { logger } from '../logger';
import { newId, nowIso } from '../ids';
import { EVENT_TYPES, type DeliveryRecord, type EventType } from '../model';
import { ddb, prefixQuery, queryAll, tableName } from './client';
import { bool, type Item, listOf, optStr, str } from './codec';
import { keys, TABLE_DEF } from './table';
import { unlessConditionFails } from './tx';

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

/** One delivery attempt, as GET /api/webhooks/{id} lists it. */
export type Attempt = DeliveryRecord;

/** Attempts are kept for 30 days. */
const ATTEMPT_TTL_S = 30 * 86_400;

/** The webhook endpoint item's codec. */
const toEndpoint = (i: Item): Endpoint => ({
  id: str(i, 'id', 'webhook'),
  tenant_id: str(i, 'tenant_id', 'webhook'),
  url: str(i, 'url', 'webhook'),
  secret: str(i, 'secret', 'webhook'),
  events: listOf(i, 'events', EVENT_TYPES, 'webhook'),
  active: bool(i, 'active', 'webhook'),
  description: optStr(i, 'description', 'webhook') ?? null,
  created_at: str(i, 'created_at', 'webhook'),
  updated_at: str(i, 'updated_at', 'webhook'),
  last_triggered_at: optStr(i, 'last_triggered_at', 'webhook') ?? null,
  failure_count: Number(i.failure_count ?? 0),
  failing_since: optStr(i, 'failing_since', 'webhook') ?? null,
  disabled_reason: optStr(i, 'disabled_reason', 'webhook') ?? null,
  deleted_at: optStr(i, 'deleted_at', 'webhook') ?? null,
  previous_secret: optStr(i, 'previous_secret', 'webhook') ?? null,
  previous_secret_expires_at: optStr(i, 'previous_secret_expires_at', 'webhook') ?? null,
});

/** The previous secret while its grace window lasts, else undefined. */
export const previousSecret = (e: Endpoint, now = Date.now()): string | undefined =>
  e.previous_secret && e.previous_secret_expires_at && Date.parse(e.previous_secret_expires_at) > now ? e.previous_secret : undefined;

export async function putEndpoint(
  tenantId: string,
  e: Pick<Endpoint, 'url' | 'secret' | 'events' | 'description'>,
): Promise<Endpoint> {
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
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return endpoint;
}

export async function getEndpoint(tenantId: string, id: string): Promise<Endpoint | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName, Key: keys.webhook(tenantId, id), ConsistentRead: true }),
  );
  return Item ? toEndpoint(Item) : undefined;
}

/** All of a tenant's endpoints, newest first. A tenant has few; one Query reads them all. */
export async function listEndpoints(tenantId: string): Promise<Endpoint[]> {
  const items = await queryAll(prefixQuery(keys.webhookPartition(tenantId), keys.webhookPrefix));
  return items.map(toEndpoint);
}

type EndpointChanges = Partial<Pick<Endpoint, 'url' | 'events' | 'active' | 'description'>>;

/** Apply changes to an existing endpoint; NotFoundError if the tenant has no such endpoint. */
export async function updateEndpoint(tenantId: string, id: string, changes: EndpointChanges): Promise<Endpoint> {
  // Only these four names can reach the expression: the schema allows nothing else.
  const set: Record<string, unknown> = { ...changes, updated_at: nowIso() };
  const reactivating = changes.active === true;
  if (reactivating) Object.assign(set, { failure_count: 0 });
  const names = Object.keys(set);
  try {
    const { Attributes } = await ddb.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.webhook(tenantId, id),
        UpdateExpression:
          `SET ${names.map((n, i) => `#n${i} = :v${i}`).join(', ')}` +
          (reactivating ? ' REMOVE failing_since, disabled_reason' : ''),
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, set[n]])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toEndpoint(Attributes!);
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw new NotFoundError('webhook');
    throw err;
  }
}

/** The newest attempts first. */
export async function lastAttempts(tenantId: string, webhookId: string, limit: number): Promise<Attempt[]> {
  const { Items = [] } = await ddb.send(
    new QueryCommand({ ...prefixQuery(keys.webhookPartition(tenantId), keys.attemptPrefix(webhookId)), Limit: limit }),
  );
  return Items.map(toAttempt);
}

/** Items one delivery-log request may read before it answers with what it has and a cursor. */
const MAX_LOG_READ = 500;

/**
 * One page of the delivery log, newest first, optionally filtered. `after` is the id of the last
 * attempt of the previous page. Filters are applied by DynamoDB after the read, so a page reads at
 * most MAX_LOG_READ attempts and may come back short with a cursor to go on from.
 */
export async function attemptPage(
  tenantId: string,
  webhookId: string,
  opts: { after?: string; limit: number; success?: boolean; eventType?: string },
): Promise<{ items: Attempt[]; next?: string }> {
  const filters: string[] = [];
  const values: Record<string, unknown> = {};
  if (opts.success !== undefined) {
    filters.push('success = :success');
    values[':success'] = opts.success;
  }
  if (opts.eventType !== undefined) {
    filters.push('event_type = :et');
    values[':et'] = opts.eventType;
  }
  const base = prefixQuery(keys.webhookPartition(tenantId), keys.attemptPrefix(webhookId));
  const items: Attempt[] = [];
  let start: Record<string, unknown> | undefined = opts.after ? keys.attempt(tenantId, webhookId, opts.after) : undefined;
  let read = 0;
  while (items.length < opts.limit && read < MAX_LOG_READ) {
    const page = await ddb.send(
      new QueryCommand({
        ...base,
        ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ...values },
        ...(filters.length && { FilterExpression: filters.join(' AND ') }),
        // Unfiltered, one read of exactly `limit + 1` tells whether more follow.
        Limit: filters.length ? Math.min(100, MAX_LOG_READ - read) : opts.limit - items.length + 1,
        ExclusiveStartKey: start,
      }),
    );
    read += page.ScannedCount ?? 0;
    for (const i of page.Items ?? []) {
      if (items.length === opts.limit) return { items, next: items.at(-1)!.id };
      items.push(toAttempt(i));
    }
    start = page.LastEvaluatedKey;
    if (!start) return { items };
  }
  // Stopped with a page full or the read budget spent: go on after the last attempt read.
  const lastSk = String(start!.SK);
  return { items, next: items.length === opts.limit ? items.at(-1)!.id : lastSk.slice(lastSk.lastIndexOf('#') + 1) };
}

/** The smallest UUIDv7-shaped string at `ms`: attempt ids of that millisecond or later sort after it. */
const idBound = (ms: number) => {
  const h = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-0000-0000-000000000000`;
};

export interface AttemptOutcome {
  event_id: string;
  event_type: string;
  success: boolean;
  next_attempt_at: string | null;
  dead_lettered: boolean;
}

/** Outcomes of the attempts recorded between two times, oldest first (replay reads these). */
export async function attemptOutcomes(tenantId: string, webhookId: string, fromMs: number, toMs: number): Promise<AttemptOutcome[]> {
  const prefix = keys.attemptPrefix(webhookId);
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':pk': keys.webhookPartition(tenantId), ':lo': prefix + idBound(fromMs), ':hi': prefix + idBound(toMs) },
    ProjectionExpression: 'event_id, event_type, success, next_attempt_at, dead_lettered',
  });
  return items.map((i) => ({
    event_id: str(i, 'event_id', 'attempt'),
    event_type: str(i, 'event_type', 'attempt'),
    success: i.success === true,
    next_attempt_at: optStr(i, 'next_attempt_at', 'attempt') ?? null,
    dead_lettered: i.dead_lettered === true,
  }));
}

const toAttempt = (i: Record<string, any>): Attempt => ({
    id: i.id,
    event_id: i.event_id,
    event_type: i.event_type,
    attempt: i.attempt,
    response_status: i.response_status,
    success: i.success,
    duration_ms: i.duration_ms,
    created_at: i.created_at,
    error: i.error ?? null,
    response_body: i.response_body ?? null,
    next_attempt_at: i.next_attempt_at ?? null,
    dead_lettered: i.dead_lettered ?? false,
    error_category: i.error_category ?? null,
});

/**
 * Record an attempt. `series` names a resend or replay (a new attempt series); `attemptId` lets
 * a caller that must be idempotent choose the id.
 */
/** The item of one attempt (putAttempt writes it; a delivery batch writes many in one call). */
export function attemptItem(tenantId: string, webhookId: string, a: Omit<Attempt, 'id'>, extra: { series?: string } = {}) {
  const attempt = { id: newId(), ...a };
  return {
    ...keys.attempt(tenantId, webhookId, attempt.id),
    type: 'webhook_attempt',
    ...attempt,
    ...(extra.series && { series: extra.series }),
    [TABLE_DEF.ttlAttribute]: Math.floor(Date.parse(a.created_at) / 1000) + ATTEMPT_TTL_S,
  };
}

export async function putAttempt(
  tenantId: string,
  webhookId: string,
  a: Omit<Attempt, 'id'>,
  extra: { series?: string } = {},
): Promise<Attempt> {
  const Item = attemptItem(tenantId, webhookId, a, extra);
  await ddb.send(new PutCommand({ TableName: tableName, Item }));
  return { id: Item.id, ...a };
}

/**
 * Write log items (attempts, kept event bodies) 25 per BatchWriteItem, all at once, retrying what
 * DynamoDB leaves unprocessed with backoff. Resolves to the items that could not be written (none
 * normally): the caller must treat their deliveries as not recorded.
 */
export async function writeLogItems(items: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  // One item per key: BatchWriteItem refuses a request naming a key twice, and one event kept for
  // two endpoints of a batch is the same item (same id, same body).
  const keyOf = (i: Record<string, unknown>) => `${i.PK}\u0000${i.SK}`;
  const unique = [...new Map(items.map((i) => [keyOf(i), i])).values()];
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < unique.length; i += 25) chunks.push(unique.slice(i, i + 25));
  const failed: Record<string, unknown>[] = [];
  await Promise.all(
    chunks.map(async (chunk) => {
      let left = chunk;
      for (let attempt = 1; ; attempt++) {
        try {
          const res = await ddb.send(new BatchWriteCommand({ RequestItems: { [tableName]: left.map((Item) => ({ PutRequest: { Item } })) } }));
          left = (res.UnprocessedItems?.[tableName] ?? []).map((r) => r.PutRequest!.Item as Record<string, unknown>);
        } catch (err) {
          // The whole call failed (the client already retried throttling). Named in the log (never
          // the items); a refusal no retry can change fails the chunk at once, anything else is
          // tried again.
          const name = (err as Error).name;
          logger.warn('batch write failed', { error: name, attempt, items: left.length });
          if (name === 'ValidationException' || name === 'AccessDeniedException') break;
        }
        if (!left.length || attempt >= 5) break;
        await sleep(Math.random() * Math.min(1_000, 25 * 2 ** attempt));
      }
      failed.push(...left);
    }),
  );
  const failedKeys = new Set(failed.map(keyOf));
  return items.filter((i) => failedKeys.has(keyOf(i)));
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
      UpdateExpression: 'SET last_triggered_at = :at, failure_count = :zero REMOVE failing_since',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':at': at, ':zero': 0 },
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
      UpdateExpression:
        'SET last_triggered_at = :at, failure_count = if_not_exists(failure_count, :zero) + :one, ' +
        'failing_since = if_not_exists(failing_since, :at)' +
        (disable ? ', active = :false, disabled_reason = :why' : ''),
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: {
        ':at': at,
        ':zero': 0,
        ':one': 1,
        ...(disable && { ':false': false, ':why': disable }),
      },
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
        UpdateExpression: 'SET active = :false, disabled_reason = :deleted, deleted_at = if_not_exists(deleted_at, :now), updated_at = :now',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':false': false, ':deleted': 'deleted', ':now': now },
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
      // Operands read the item as it was before this update: previous_secret gets the old secret.
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

// ---- kept events ---------------------------------------------------------------------------

export interface StoredEvent {
  event_id: string;
  event_type: string;
  /** The exact envelope every delivery of the event sends and signs. */
  body: string;
  stored_at: string;
}

/**
 * Event bodies outlive every attempt of their event: the last retry comes up to ~28 hours after
 * the first attempt, and the body is stored just before it (by the fan-out), or by the first
 * attempt of a resend or replay series.
 */
const EVENT_TTL_S = ATTEMPT_TTL_S + 2 * 86_400;

/** Keep an event's body for EVENT_TTL_S from now (idempotent: the same event has the same body). */
/** The kept body of an event (putEvent writes it; a delivery batch writes many in one call). */
export function eventItem(tenantId: string, e: { event_id: string; event_type: string; body: string }, now = Date.now()) {
  return {
    ...keys.event(tenantId, e.event_id),
    type: 'webhook_event',
    ...e,
    stored_at: new Date(now).toISOString(),
    [TABLE_DEF.ttlAttribute]: Math.floor(now / 1000) + EVENT_TTL_S,
  };
}

export async function putEvent(tenantId: string, e: { event_id: string; event_type: string; body: string }): Promise<void> {
  await ddb.send(new PutCommand({ TableName: tableName, Item: eventItem(tenantId, e) }));
}

export async function getEvent(tenantId: string, eventId: string): Promise<StoredEvent | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: keys.event(tenantId, eventId) }));
  // TTL deletion lags: an expired item may still be there for a while.
  if (!Item || Number(Item[TABLE_DEF.ttlAttribute]) * 1000 < Date.now()) return undefined;
  return { event_id: Item.event_id, event_type: Item.event_type, body: Item.body, stored_at: Item.stored_at };
}

// ---- replay jobs ---------------------------------------------------------------------------

export interface ReplayJobItem {
  id: string;
  webhook_id: string;
  since: string;
  status: 'running' | 'done' | 'failed';
  queued: number;
  sent: number;
  /** Replayed deliveries finished (accepted or given up). */
  finished: number;
  /** Index into the job's list of missed events up to which they are queued. */
  position: number;
  scan_done: boolean;
  created_at: string;
  updated_at: string;
  error?: string;
}

const toJob = (i: Record<string, any>): ReplayJobItem => ({
  id: i.id,
  webhook_id: i.webhook_id,
  since: i.since,
  status: i.status,
  queued: Number(i.queued ?? 0),
  sent: Number(i.sent ?? 0),
  finished: Number(i.finished ?? 0),
  position: Number(i.position ?? 0),
  scan_done: i.scan_done === true,
  created_at: i.created_at,
  updated_at: i.updated_at,
  ...(i.error && { error: i.error }),
});

/** Every endpoint's latest replay job in a workspace: one small item per endpoint, one Query. */
export async function listReplayJobs(tenantId: string): Promise<ReplayJobItem[]> {
  return (await queryAll(prefixQuery(keys.webhookPartition(tenantId), keys.replayPrefix))).map(toJob);
}

export async function getReplayJob(tenantId: string, webhookId: string): Promise<ReplayJobItem | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: keys.replay(tenantId, webhookId), ConsistentRead: true }));
  return Item ? toJob(Item) : undefined;
}

/**
 * Start a job unless one runs: the condition makes two concurrent requests start one job. A
 * running job not touched for `staleMs` (its worker lost) no longer blocks a new one.
 * Returns the new job, or undefined when one runs.
 */
export async function startReplayJob(tenantId: string, webhookId: string, since: string, staleMs: number): Promise<ReplayJobItem | undefined> {
  const now = nowIso();
  const job: ReplayJobItem = {
    id: newId(),
    webhook_id: webhookId,
    since,
    status: 'running',
    queued: 0,
    sent: 0,
    finished: 0,
    position: 0,
    scan_done: false,
    created_at: now,
    updated_at: now,
  };
  const res = await unlessConditionFails(
    ddb.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.replay(tenantId, webhookId), type: 'webhook_replay', ...job, [TABLE_DEF.ttlAttribute]: Math.floor(Date.now() / 1000) + ATTEMPT_TTL_S },
        ConditionExpression: 'attribute_not_exists(PK) OR #s <> :running OR updated_at < :stale',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':running': 'running', ':stale': new Date(Date.now() - staleMs).toISOString() },
      }),
    ),
  );
  return res ? job : undefined;
}

/** Move a job's counters; only the job `jobId` (a newer job replaces the item). */
export async function updateReplayJob(
  tenantId: string,
  webhookId: string,
  jobId: string,
  change: { queued?: number; sent?: number; finished?: number; position?: number; scanDone?: boolean; failed?: string },
): Promise<ReplayJobItem | undefined> {
  const set = ['updated_at = :now'];
  const add: string[] = [];
  const values: Record<string, unknown> = { ':now': nowIso(), ':id': jobId };
  for (const k of ['queued', 'sent', 'finished'] as const) {
    if (change[k]) {
      add.push(`${k} :${k}`);
      values[`:${k}`] = change[k];
    }
  }
  if (change.position !== undefined) {
    set.push('#pos = :position');
    values[':position'] = change.position;
  }
  if (change.scanDone) set.push('scan_done = :true');
  if (change.scanDone) values[':true'] = true;
  if (change.failed) {
    set.push('#s = :failed, #err = :err');
    values[':failed'] = 'failed';
    values[':err'] = change.failed;
  }
  const res = await conditional(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.replay(tenantId, webhookId),
      UpdateExpression: `SET ${set.join(', ')}${add.length ? ` ADD ${add.join(', ')}` : ''}`,
      ConditionExpression: 'id = :id',
      // DynamoDB refuses an empty ExpressionAttributeNames.
      ...((change.position !== undefined || change.failed) && {
        ExpressionAttributeNames: {
          ...(change.position !== undefined && { '#pos': 'position' }),
          ...(change.failed && { '#s': 'status', '#err': 'error' }),
        },
      }),
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  const job = res?.Attributes ? toJob(res.Attributes) : undefined;
  // Done once every missed event is queued and every queued delivery finished. Both the worker
  // (after its scan) and the last delivery can see that; the condition lets one of them say it.
  if (job && job.status === 'running' && job.scan_done && job.finished >= job.queued) {
    await conditional(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.replay(tenantId, webhookId),
        UpdateExpression: 'SET #s = :done, updated_at = :now',
        ConditionExpression: 'id = :id AND #s = :running',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':done': 'done', ':running': 'running', ':now': nowIso(), ':id': jobId },
      }),
    );
    job.status = 'done';
  }
  return job;
}

/** Updates that find the endpoint deleted meanwhile do nothing. */
const conditional = (cmd: UpdateCommand) => unlessConditionFails(ddb.send(cmd));
