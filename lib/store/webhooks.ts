/** Webhook endpoints and delivery attempts, in the tenant's webhook partition. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../errors';
import { newId, nowIso } from '../ids';
import type { EventType } from '../model';
import type { DeliveryRecord } from '../schemas';
import type * as z from 'zod/mini';
import { ddb, prefixQuery, queryAll, tableName } from './client';
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
}

/** One delivery attempt, as GET /api/webhooks/{id} lists it. */
export type Attempt = z.infer<typeof DeliveryRecord>;

/** Attempts are kept for 30 days. */
const ATTEMPT_TTL_S = 30 * 86_400;

const toEndpoint = (i: Record<string, unknown>): Endpoint => ({
  id: i.id as string,
  tenant_id: i.tenant_id as string,
  url: i.url as string,
  secret: i.secret as string,
  events: i.events as EventType[],
  active: i.active as boolean,
  description: (i.description as string | undefined) ?? null,
  created_at: i.created_at as string,
  updated_at: i.updated_at as string,
  last_triggered_at: (i.last_triggered_at as string | undefined) ?? null,
  failure_count: Number(i.failure_count ?? 0),
  failing_since: (i.failing_since as string | undefined) ?? null,
  disabled_reason: (i.disabled_reason as string | undefined) ?? null,
});

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
  return Items.map((i) => ({
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
  }));
}

export async function putAttempt(tenantId: string, webhookId: string, a: Omit<Attempt, 'id'>): Promise<Attempt> {
  const attempt = { id: newId(), ...a };
  await ddb.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.attempt(tenantId, webhookId, attempt.id),
        type: 'webhook_attempt',
        ...attempt,
        [TABLE_DEF.ttlAttribute]: Math.floor(Date.parse(a.created_at) / 1000) + ATTEMPT_TTL_S,
      },
    }),
  );
  return attempt;
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
export async function recordFailure(tenantId: string, id: string, at: string, disable?: string): Promise<void> {
  await conditional(
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
    }),
  );
}

/** Updates that find the endpoint deleted meanwhile do nothing. */
const conditional = (cmd: UpdateCommand) => unlessConditionFails(ddb.send(cmd));
