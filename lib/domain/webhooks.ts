/** Webhook endpoint management for signed-in workspace users, and the test operation. */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { logger } from '../logger';
import { EVENT_TYPES, TEST_EVENT } from '../model';
import {
  DEFAULT_GRACE_S,
  type CreateWebhookBody,
  type ListDeliveriesQuery,
  type ListWebhooksQuery,
  type ReplayJob,
  type RotateSecretBody,
  type UpdateWebhookBody,
  type WebhookStatus,
} from '../api/webhooks';
import { getEndpoint, listEndpoints, type Endpoint } from '../store/webhook-endpoints';
import { changeEndpoint, deleteEndpoint, putEndpoint, replaceSecret } from './webhook-writes';
import { attemptItem, attemptPage, attemptPageKey, lastAttempts } from '../store/webhook-attempts';
import { decodeCursor, encodeCursor } from './cursor';
import { putServiceEvent } from '../store/webhook-events';
import { getReplayJob, type ReplayJobItem } from '../store/replay-jobs';
import { webhookConfig } from '../webhooks/config';
import { envelope } from '../webhooks/events';
import { attemptRecord, signAndSend } from '../webhooks/attempt';
import { errorMessage } from '../webhooks/outcome';
import { generateSecret } from '../webhooks/sign';
import { forbiddenReason } from '../webhooks/ssrf';
import { auditBy, type SessionPrincipal } from './principal';
import { putAudit, urlHost, type AuditChange } from '../store/audit';
import { tableName } from '../store/client';

export const statusOf = (e: Endpoint): WebhookStatus =>
  e.deleted_at || e.disabled_reason === 'deleted' ? 'deleted' : e.active ? 'active' : 'disabled';

const publicView = (e: Endpoint) => ({
  id: e.id,
  url: e.url,
  events: e.events,
  active: e.active,
  description: e.description,
  last_triggered_at: e.last_triggered_at,
  failure_count: e.failure_count,
  created_at: e.created_at,
  disabled_reason: e.disabled_reason,
  status: statusOf(e),
});

/**
 * Early feedback for URLs that name a forbidden address outright. Names that resolve there are
 * caught at delivery time, when the connection is made (lib/webhooks/send.ts).
 */
function checkTarget(url: string) {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const literal = isIP(host) ? host : host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : undefined;
  const reason = literal && forbiddenReason(literal, { allowLoopback: webhookConfig.allowLoopback });
  if (reason) throw new ValidationError(`url must not point at a non-public address: ${host} is ${reason}`, { field: 'url' });
}

export const webhookAudit = (p: SessionPrincipal, action: string, id: string, changes?: AuditChange[]) =>
  auditBy(p, action, { type: 'webhook', id }, changes);

/** What an update changes, as the audit keeps it: the URL's host only; the description, free text, by name. */
function webhookChanges(before: Endpoint, changes: UpdateWebhookBody): AuditChange[] {
  const out: AuditChange[] = [];
  if (changes.url !== undefined && changes.url !== before.url)
    out.push({ field: 'url', before: urlHost(before.url), after: urlHost(changes.url) });
  if (changes.events !== undefined && JSON.stringify(changes.events) !== JSON.stringify(before.events))
    out.push({ field: 'events', before: before.events, after: changes.events });
  if (changes.active !== undefined && changes.active !== before.active)
    out.push({ field: 'active', before: before.active, after: changes.active });
  if (changes.description !== undefined && changes.description !== before.description) out.push({ field: 'description' });
  return out;
}

async function owned(p: SessionPrincipal, id: string): Promise<Endpoint> {
  const endpoint = await getEndpoint(p.tenantId, id);
  if (!endpoint) throw new NotFoundError('webhook');
  return endpoint;
}

// The cap on active endpoints is held by the count's condition in each write that switches an
// endpoint on or off (lib/store/webhook-endpoints.ts), and answered by webhook-writes.ts.
export { MAX_ACTIVE_ENDPOINTS } from '../store/webhook-endpoints';

export async function createWebhook(p: SessionPrincipal, body: CreateWebhookBody) {
  checkTarget(body.url);
  // No list means every event type, stored explicitly so the subscription is visible.
  const events = body.events ? [...new Set(body.events)] : [...EVENT_TYPES];
  const e = await putEndpoint(
    p.tenantId,
    { url: body.url, secret: generateSecret(), events, description: body.description ?? null },
    (id) =>
      webhookAudit(p, 'webhook.created', id, [
        { field: 'url', after: urlHost(body.url) },
        { field: 'events', after: events },
        { field: 'active', after: true },
      ]),
  );
  // Ids and event names only: the URL can carry the receiver's credentials, the secret is one.
  logger.info('webhook created', { webhook_id: e.id, events: e.events, user_id: p.userId });
  return {
    success: true,
    webhook: { id: e.id, url: e.url, secret: e.secret, events: e.events, active: e.active, created_at: e.created_at },
  };
}

export async function listWebhooks(p: SessionPrincipal, query: ListWebhooksQuery = {}) {
  const all = (await listEndpoints(p.tenantId)).map(publicView);
  return query.status ? all.filter((e) => e.status === query.status) : all;
}

export async function getWebhook(p: SessionPrincipal, id: string) {
  const [endpoint, deliveries] = await Promise.all([owned(p, id), lastAttempts(p.tenantId, id, 10)]);
  const { created_at: _c, ...webhook } = publicView(endpoint);
  return { webhook, deliveries };
}

/**
 * Read, check, write; decide again whenever the endpoint changed in between: whether the write
 * switches it on or off (and so counts towards the cap) depends on what it was.
 */
async function applyUpdate(p: SessionPrincipal, id: string, changes: UpdateWebhookBody): Promise<{ before: Endpoint; e: Endpoint }> {
  const first = await owned(p, id);
  return changeEndpoint(p.tenantId, first, changes, (before) => webhookAudit(p, 'webhook.updated', id, webhookChanges(before, changes)));
}

export async function updateWebhook(p: SessionPrincipal, id: string, body: UpdateWebhookBody) {
  if (!Object.keys(body).length) throw new ValidationError('body must change at least one of url, events, active, description');
  if (body.url) checkTarget(body.url);
  const changes = { ...body, ...(body.events && { events: [...new Set(body.events)] }) };
  const { before, e } = await applyUpdate(p, id, changes);
  logger.info('webhook updated', { webhook_id: id, changed: Object.keys(body), active: e.active, user_id: p.userId });
  if (before.active && !e.active) logger.info('webhook disabled', { webhook_id: id, reason: 'disabled by a user', user_id: p.userId });
  return { success: true, webhook: { id: e.id, active: e.active } };
}

/**
 * Soft delete: the endpoint stays, inactive, with status "deleted" (disabled_reason "deleted");
 * pending deliveries to it are dropped. It cannot be reactivated.
 */
export async function deleteWebhook(p: SessionPrincipal, id: string) {
  await deleteEndpoint(p.tenantId, id, webhookAudit(p, 'webhook.deleted', id, [{ field: 'status', after: 'deleted' }]));
  logger.info('webhook deleted', { webhook_id: id, user_id: p.userId });
  return { success: true };
}

/**
 * Send a webhook.test event now and record it with the endpoint's deliveries. It works on a
 * disabled endpoint too (it is how a receiver is checked before the endpoint is enabled again),
 * never on a deleted one, and does not count towards failure_count or auto-disable.
 */
export async function testWebhook(p: SessionPrincipal, id: string) {
  const endpoint = await owned(p, id);
  if (statusOf(endpoint) === 'deleted') throw new ConflictError('webhook was deleted; create a new endpoint instead');
  const event = {
    id: `evt_${randomBytes(16).toString('hex')}`,
    type: TEST_EVENT,
    tenantId: p.tenantId,
    timestamp: new Date().toISOString(),
    data: { webhookId: endpoint.id, message: 'This is a test event from Talent Pipeline.' },
  } as const;
  const body = envelope(event, p.tenantSlug);
  // Kept like any event, so a test event can be resent too.
  await putServiceEvent(p.tenantId, { event_id: event.id, event_type: event.type, body });
  // The route's function has 20 s; one attempt takes at most 15 s, so a slow receiver is a
  // result ("timeout"), never a 500. Signed and sent as a delivery is, by the same code.
  const sent = await signAndSend(endpoint, { id: event.id, type: event.type, body });
  // The attempt and the audit record in one transaction.
  const audit = webhookAudit(p, 'webhook.tested', endpoint.id, [{ field: 'result', after: sent.category ?? 'success' }]);
  await putAudit(p.tenantId, audit, [
    { Put: { TableName: tableName(), Item: attemptItem(p.tenantId, endpoint.id, attemptRecord(event, 1, sent)) } },
  ]);
  const duration_ms = Math.round(sent.result.durationMs);
  const error_message = errorMessage(sent.result);
  return {
    success: sent.category === null,
    status: sent.result.status,
    duration_ms,
    response_body: sent.result.body,
    error: sent.category,
    error_message,
    // Deprecated camelCase names of the three fields above, answered for one more release.
    durationMs: duration_ms,
    responseBody: sent.result.body,
    errorMessage: error_message,
  };
}

// ---- delivery log ---------------------------------------------------------------------------

/** Delivery attempts, newest first, one page at a time (cursors: lib/domain/cursor.ts). */
export async function listWebhookDeliveries(p: SessionPrincipal, id: string, q: ListDeliveriesQuery) {
  const scope = {
    tenantId: p.tenantId,
    filters: JSON.stringify(['deliveries', id, q.status ?? null, q.event_type ?? null]),
    key: attemptPageKey(p.tenantId, id),
  };
  const startKey = q.cursor === undefined ? undefined : decodeCursor(q.cursor, scope);
  await owned(p, id);
  const page = await attemptPage(p.tenantId, id, {
    startKey,
    limit: q.limit,
    success: q.status === undefined ? undefined : q.status === 'succeeded',
    eventType: q.event_type,
  });
  return { items: page.items, next_cursor: page.next ? encodeCursor(scope, page.next) : null };
}

// ---- resend, replay (the routes that queue: lib/domain/webhook-queueing.ts) --------------------

/** An endpoint of the caller's workspace that receives deliveries, or why not. */
export async function deliverable(p: SessionPrincipal, id: string): Promise<Endpoint> {
  const endpoint = await owned(p, id);
  const status = statusOf(endpoint);
  if (status !== 'active') throw new ConflictError(`webhook is ${status}; only an active endpoint receives deliveries`);
  return endpoint;
}

/** A running job nobody has moved for this long (its worker lost) no longer blocks a new one. */
export const REPLAY_STALE_MS = 15 * 60_000;
/** Replay jobs one workspace may run at once (each queues at most 5,000 events). */
export const MAX_RUNNING_REPLAYS = 3;

export const jobView = (j: ReplayJobItem): ReplayJob => ({
  id: j.id,
  since: j.since,
  status: j.status,
  queued: j.queued,
  sent: j.sent,
  remaining: Math.max(0, j.queued - j.finished),
  created_at: j.created_at,
  updated_at: j.updated_at,
});

export async function getWebhookReplay(p: SessionPrincipal, id: string): Promise<ReplayJob | null> {
  await owned(p, id);
  const job = await getReplayJob(p.tenantId, id);
  return job ? jobView(job) : null;
}

// ---- secret rotation ------------------------------------------------------------------------

/**
 * A new secret, shown only here. During the grace window deliveries carry signatures of both
 * secrets (see lib/webhooks/sign.ts); after it, only the new one's.
 */
export async function rotateWebhookSecret(p: SessionPrincipal, id: string, body: RotateSecretBody) {
  const endpoint = await owned(p, id);
  if (statusOf(endpoint) === 'deleted') throw new ConflictError('webhook was deleted; create a new endpoint instead');
  const grace = body.grace_seconds ?? DEFAULT_GRACE_S;
  const expires = grace > 0 ? new Date(Date.now() + grace * 1000).toISOString() : null;
  const secret = generateSecret();
  const audit = webhookAudit(p, 'webhook.secret_rotated', id, [{ field: 'previous_secret_expires_at', after: expires }]);
  await replaceSecret(p.tenantId, id, secret, expires, audit);
  return { success: true, webhook: { id, secret, previous_secret_expires_at: expires } };
}
