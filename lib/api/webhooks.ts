/**
 * Webhook endpoints, their deliveries, tests, resends, replays and secret rotation.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import type * as model from '../model';
import { EVENT_TYPES } from '../model';
import { IdParam, Success, dataOf, hasVisible, intParam, nextCursor, pageCursor, plainText, timestamp, type Same } from './fields';
import { DOCS, type Route } from './route';

// ---- webhook management (session routes) --------------------------------------------------

const webhookUrl = z.url({ protocol: /^https$/, error: 'url must be an https:// URL' }).check(
  z.maxLength(2048, { error: 'url must be at most 2048 characters' }),
  z.refine(
    (u) => {
      const url = URL.parse(u);
      return !url?.username && !url?.password;
    },
    { error: 'url must not contain credentials' },
  ),
);
const eventTypes = z
  .array(z.enum(EVENT_TYPES, { error: `events must be one of ${EVENT_TYPES.join(', ')}` }), {
    error: 'events must be an array of event types',
  })
  .check(z.minLength(1, { error: 'events must name at least one event type (omit it for all)' }));
const description = z.string({ error: 'description must be a string' }).check(
  z.maxLength(500, { error: 'description must be at most 500 characters' }),
  // The names' rule: one line of text that reads as it is stored.
  ...plainText('description'),
  // Empty clears it; something non-empty must be something a person can read.
  z.refine((d) => d === '' || hasVisible(d), { error: 'description must contain a visible character (or be empty)' }),
);

export const CreateWebhookBody = z.strictObject({
  url: webhookUrl,
  events: z.optional(eventTypes),
  description: z.optional(description),
});
export type CreateWebhookBody = z.output<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z.strictObject({
  url: z.optional(webhookUrl),
  events: z.optional(eventTypes),
  active: z.optional(z.boolean({ error: 'active must be true or false' })),
  description: z.optional(description),
});
export type UpdateWebhookBody = z.output<typeof UpdateWebhookBody>;

/** `deleted` is a soft delete (disabled_reason "deleted"); `disabled` covers the user and the service. */
export const WEBHOOK_STATUSES = ['active', 'disabled', 'deleted'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export const ListWebhooksQuery = z.strictObject({
  status: z.optional(z.enum(WEBHOOK_STATUSES, { error: `status must be one of ${WEBHOOK_STATUSES.join(', ')}` })),
});
export type ListWebhooksQuery = z.output<typeof ListWebhooksQuery>;

const WebhookEndpoint = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.enum(EVENT_TYPES)),
  active: z.boolean(),
  description: z.nullable(z.string()),
  last_triggered_at: z.nullable(timestamp),
  failure_count: z.int(),
  created_at: timestamp,
  /** Why the service disabled it (410 Gone, failing for 5 days), if it did; "deleted" once deleted. */
  disabled_reason: z.nullable(z.string()),
  status: z.enum(WEBHOOK_STATUSES),
});
export const WebhookList = z.object({ data: z.array(WebhookEndpoint) });

export const CreatedWebhook = z.object({
  success: z.boolean(),
  webhook: z.object({
    ...z.pick(WebhookEndpoint, { id: true, url: true, events: true, active: true, created_at: true }).shape,
    secret: z.string(),
  }),
});

export const DeliveryRecord = z.object({
  id: z.uuid(),
  event_id: z.string(),
  event_type: z.string(),
  attempt: z.int(),
  response_status: z.int(),
  success: z.boolean(),
  duration_ms: z.int(),
  created_at: timestamp,
  error: z.nullable(z.string()),
  response_body: z.nullable(z.string()),
  next_attempt_at: z.nullable(timestamp),
  dead_lettered: z.boolean(),
  /** Why the attempt failed, as a category (ERROR_CATEGORIES); null on success. */
  error_category: z.nullable(z.string()),
});

export const WebhookDetail = z.object({
  webhook: z.omit(WebhookEndpoint, { created_at: true }),
  deliveries: z.array(DeliveryRecord),
});

export const UpdatedWebhook = z.object({ success: z.boolean(), webhook: z.object({ id: z.uuid(), active: z.boolean() }) });

/**
 * Why a delivery attempt failed. The same strings appear in the delivery log (`error_category`)
 * and in the test operation's result (`error`).
 */
export const ERROR_CATEGORIES = ['timeout', 'dns', 'tls', 'connection', 'blocked', 'redirect', 'http_status'] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** Still answered beside its snake_case name for one release; clients should read the new one. */
const deprecatedAlias = <T extends z.ZodMiniType>(schema: T, name: string) =>
  schema.check(z.meta({ deprecated: true, description: DOCS ? `Deprecated: use ${name}. Answered for one more release.` : undefined }));

export const WebhookTestResult = z.object({
  success: z.boolean(),
  status: z.int(),
  duration_ms: z.int(),
  response_body: z.string(),
  /** The failure category, null on success. */
  error: z.nullable(z.enum(ERROR_CATEGORIES)),
  /** A secret-free sentence about the failure, null on success. */
  error_message: z.nullable(z.string()),
  durationMs: deprecatedAlias(z.int(), 'duration_ms'),
  responseBody: deprecatedAlias(z.string(), 'response_body'),
  errorMessage: deprecatedAlias(z.nullable(z.string()), 'error_message'),
});

const EVENT_FILTER = /^[a-z]+(\.[a-z_]+)+$/;
export const ListDeliveriesQuery = z.strictObject({
  cursor: pageCursor,
  limit: z._default(intParam('limit', 1, 100), 20),
  status: z.optional(z.enum(['failed', 'succeeded'], { error: 'status must be one of failed, succeeded' })),
  event_type: z.optional(
    z
      .string({ error: 'event_type must be a string' })
      .check(
        z.maxLength(64, { error: 'event_type must be an event type such as candidate.created' }),
        z.regex(EVENT_FILTER, { error: 'event_type must be an event type such as candidate.created' }),
      ),
  ),
});
export type ListDeliveriesQuery = z.output<typeof ListDeliveriesQuery>;

export const DeliveryPage = z.object({ data: z.array(DeliveryRecord), next_cursor: nextCursor });

/** Event ids as deliveries carry them in `webhook-id`. */
export const EVENT_ID = /^evt_[0-9a-f]{32}$/;
export const ResendBody = z.strictObject({
  event_id: z
    .string({ error: 'event_id must be a string' })
    .check(z.regex(EVENT_ID, { error: 'event_id must be an event id (evt_ and 32 hex digits)' })),
  /**
   * Resend an event of a type the endpoint is no longer subscribed to (otherwise 409
   * `event_not_subscribed`).
   */
  force: z.optional(z.boolean({ error: 'force must be true or false' })),
});
export type ResendBody = z.output<typeof ResendBody>;
export const ResendResult = z.object({ success: z.boolean(), event_id: z.string() });

/** Replay looks back at most this far (Svix's recover window). */
export const MAX_REPLAY_DAYS = 14;
export const ReplayBody = z.strictObject({
  since: z.iso.datetime({ offset: true, error: 'since must be an ISO 8601 date-time, such as 2026-01-31T09:00:00Z' }),
});
export type ReplayBody = z.output<typeof ReplayBody>;

export const REPLAY_STATUSES = ['running', 'done', 'failed'] as const;
export const ReplayJob = z.object({
  id: z.uuid(),
  since: timestamp,
  status: z.enum(REPLAY_STATUSES),
  /** Deliveries queued so far. */
  queued: z.int(),
  /** Queued deliveries the receiver accepted. */
  sent: z.int(),
  /** Queued deliveries not finished yet (neither accepted nor given up). */
  remaining: z.int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type ReplayJob = z.infer<typeof ReplayJob>;

/** The grace window of a rotation: default 24 h, at most 7 days. */
export const DEFAULT_GRACE_S = 86_400;
export const MAX_GRACE_S = 7 * 86_400;
export const RotateSecretBody = z.strictObject({
  grace_seconds: z.optional(
    z
      .int({ error: `grace_seconds must be an integer between 0 and ${MAX_GRACE_S}` })
      .check(
        z.gte(0, { error: `grace_seconds must be an integer between 0 and ${MAX_GRACE_S}` }),
        z.lte(MAX_GRACE_S, { error: `grace_seconds must be an integer between 0 and ${MAX_GRACE_S}` }),
      ),
  ),
});
export type RotateSecretBody = z.output<typeof RotateSecretBody>;
export const RotatedSecret = z.object({
  success: z.boolean(),
  webhook: z.object({ id: z.uuid(), secret: z.string(), previous_secret_expires_at: z.nullable(timestamp) }),
});

// The store builds this shape without the schema; a field added to one side only fails tsc here.
true satisfies Same<z.infer<typeof DeliveryRecord>, model.DeliveryRecord>;

// ---- routes ------------------------------------------------------------------------------

export const listWebhooks = {
  method: 'GET',
  path: '/api/webhooks',
  handler: 'list-webhooks',
  auth: 'session',
  access: 'read',
  summary: DOCS && "List the workspace's webhook endpoints (no secrets), optionally only those of one status",
  query: ListWebhooksQuery,
  status: 200,
  response: WebhookList,
} as const satisfies Route;

export const createWebhook = {
  method: 'POST',
  path: '/api/webhooks',
  handler: 'create-webhook',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Create a webhook endpoint; the secret is shown only here',
  body: CreateWebhookBody,
  ...(DOCS && { errors: { 409: 'The workspace already has 20 active endpoints' } }),
  status: 201,
  response: CreatedWebhook,
} as const satisfies Route;

export const getWebhook = {
  method: 'GET',
  path: '/api/webhooks/{id}',
  handler: 'get-webhook',
  auth: 'session',
  access: 'read',
  summary: DOCS && 'An endpoint and its last 10 delivery attempts, newest first',
  params: IdParam,
  status: 200,
  response: WebhookDetail,
} as const satisfies Route;

export const updateWebhook = {
  method: 'PATCH',
  path: '/api/webhooks/{id}',
  handler: 'update-webhook',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Change an endpoint; its url, events (replaces the subscription), active or description',
  params: IdParam,
  body: UpdateWebhookBody,
  ...(DOCS && { errors: { 409: 'Reactivating would exceed 20 active endpoints' } }),
  status: 200,
  response: UpdatedWebhook,
} as const satisfies Route;

export const deleteWebhook = {
  method: 'DELETE',
  path: '/api/webhooks/{id}',
  handler: 'delete-webhook',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Delete an endpoint; a soft delete: active becomes false and status deleted, and pending deliveries are dropped',
  params: IdParam,
  status: 200,
  response: Success,
} as const satisfies Route;

export const testWebhook = {
  method: 'POST',
  path: '/api/webhooks/{id}/test',
  handler: 'test-webhook',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Send a signed webhook.test event now and record the delivery',
  params: IdParam,
  ...(DOCS && { errors: { 409: 'The endpoint is deleted' } }),
  status: 200,
  response: WebhookTestResult,
  timeoutSeconds: 20,
} as const satisfies Route;

export const listWebhookDeliveries = {
  method: 'GET',
  path: '/api/webhooks/{id}/deliveries',
  handler: 'list-webhook-deliveries',
  auth: 'session',
  access: 'read',
  summary: DOCS && 'Delivery attempts, newest first, with an opaque cursor; filter by status and event type',
  params: IdParam,
  query: ListDeliveriesQuery,
  status: 200,
  response: DeliveryPage,
} as const satisfies Route;

export const resendWebhookEvent = {
  method: 'POST',
  path: '/api/webhooks/{id}/resend',
  handler: 'resend-webhook-event',
  auth: 'session',
  role: 'admin',
  access: 'write',
  queue: true,
  summary: 'Send one event again (same webhook-id and body, fresh signature) as a new attempt series',
  params: IdParam,
  body: ResendBody,
  ...(DOCS && {
    errors: { 409: 'The endpoint is disabled or deleted, the event type is no longer subscribed (event_not_subscribed), or erased' },
  }),
  status: 202,
  response: ResendResult,
} as const satisfies Route;

export const replayWebhook = {
  method: 'POST',
  path: '/api/webhooks/{id}/replay',
  handler: 'replay-webhook',
  auth: 'session',
  role: 'admin',
  access: 'write',
  queue: true,
  summary:
    'Queue again every event that failed to reach the endpoint since a time (at most 14 days back); 200 with the running job if one runs',
  params: IdParam,
  body: ReplayBody,
  ...(DOCS && { errors: { 409: 'The endpoint is disabled or deleted, or the workspace already runs 3 replay jobs' } }),
  status: 202,
  ...(DOCS && { alsoStatus: { 200: 'A replay job already runs for this endpoint: that job, not a new one' } }),
  response: dataOf(ReplayJob),
} as const satisfies Route;

export const getWebhookReplay = {
  method: 'GET',
  path: '/api/webhooks/{id}/replay',
  handler: 'get-webhook-replay',
  auth: 'session',
  access: 'read',
  summary: DOCS && "The endpoint's latest replay job and its progress, or null",
  params: IdParam,
  status: 200,
  response: dataOf(z.nullable(ReplayJob)),
} as const satisfies Route;

export const rotateWebhookSecret = {
  method: 'POST',
  path: '/api/webhooks/{id}/rotate-secret',
  handler: 'rotate-webhook-secret',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Rotate the signing secret; the new one is shown only here, and the old one keeps signing too during the grace window',
  params: IdParam,
  body: RotateSecretBody,
  ...(DOCS && { errors: { 409: 'The endpoint is deleted' } }),
  status: 200,
  response: RotatedSecret,
} as const satisfies Route;
