/** Webhook endpoint management for signed-in workspace users, and the test operation. */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { EVENT_TYPES, TEST_EVENT } from '../model';
import type { CreateWebhookBody, UpdateWebhookBody } from '../schemas';
import { getEndpoint, lastAttempts, listEndpoints, putAttempt, putEndpoint, updateEndpoint, type Endpoint } from '../store/webhooks';
import { webhookConfig } from '../webhooks/config';
import { envelope } from '../webhooks/events';
import { sendWebhook } from '../webhooks/send';
import { deliveryHeaders, generateSecret } from '../webhooks/sign';
import { forbiddenReason } from '../webhooks/ssrf';
import type { SessionPrincipal } from './identity';

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
});

/**
 * Early feedback for URLs that name a forbidden address outright. Names that resolve there are
 * caught at delivery time, when the connection is made (lib/webhooks/send.ts).
 */
function checkTarget(url: string) {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const literal = isIP(host) ? host : host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : undefined;
  const reason = literal && forbiddenReason(literal, { allowLoopback: webhookConfig.allowLoopback });
  if (reason) throw new ValidationError(`url must not point at a ${reason} address`);
}

async function owned(p: SessionPrincipal, id: string): Promise<Endpoint> {
  const endpoint = await getEndpoint(p.tenantId, id);
  if (!endpoint) throw new NotFoundError('webhook');
  return endpoint;
}

/**
 * Active endpoints per workspace. Each event becomes one delivery per endpoint, so the cap
 * bounds what one workspace can make us send (and the endpoint listing the fan-out reads).
 */
export const MAX_ACTIVE_ENDPOINTS = 20;

async function ensureRoomForOneMore(p: SessionPrincipal) {
  const active = (await listEndpoints(p.tenantId)).filter((e) => e.active).length;
  if (active >= MAX_ACTIVE_ENDPOINTS) {
    throw new ConflictError(`a workspace can have at most ${MAX_ACTIVE_ENDPOINTS} active webhook endpoints`);
  }
}

export async function createWebhook(p: SessionPrincipal, body: CreateWebhookBody) {
  checkTarget(body.url);
  await ensureRoomForOneMore(p);
  const e = await putEndpoint(p.tenantId, {
    url: body.url,
    secret: generateSecret(),
    // No list means every event type, stored explicitly so the subscription is visible.
    events: body.events ? [...new Set(body.events)] : [...EVENT_TYPES],
    description: body.description ?? null,
  });
  return { success: true, webhook: { id: e.id, url: e.url, secret: e.secret, events: e.events, active: e.active, created_at: e.created_at } };
}

export async function listWebhooks(p: SessionPrincipal) {
  return { data: (await listEndpoints(p.tenantId)).map(publicView) };
}

export async function getWebhook(p: SessionPrincipal, id: string) {
  const [endpoint, deliveries] = await Promise.all([owned(p, id), lastAttempts(p.tenantId, id, 10)]);
  const { created_at: _c, ...webhook } = publicView(endpoint);
  return { webhook, deliveries };
}

export async function updateWebhook(p: SessionPrincipal, id: string, body: UpdateWebhookBody) {
  if (!Object.keys(body).length) throw new ValidationError('body must change at least one of url, events, active, description');
  if (body.url) checkTarget(body.url);
  if (body.active === true && !(await owned(p, id)).active) await ensureRoomForOneMore(p);
  const changes = { ...body, ...(body.events && { events: [...new Set(body.events)] }) };
  const e = await updateEndpoint(p.tenantId, id, changes);
  return { success: true, webhook: { id: e.id, active: e.active } };
}

/** Soft delete: the endpoint stays, inactive; pending deliveries to it are dropped. */
export async function deleteWebhook(p: SessionPrincipal, id: string) {
  await updateEndpoint(p.tenantId, id, { active: false });
  return { success: true };
}

/**
 * Send a webhook.test event now and record it with the endpoint's deliveries. It works on an
 * inactive endpoint too, and does not count towards failure_count or auto-disable.
 */
export async function testWebhook(p: SessionPrincipal, id: string) {
  const endpoint = await owned(p, id);
  const event = {
    id: `evt_${randomBytes(16).toString('hex')}`,
    type: TEST_EVENT,
    tenantId: p.tenantId,
    timestamp: new Date().toISOString(),
    data: { webhookId: endpoint.id, message: 'This is a test event from Talent Pipeline.' },
  } as const;
  const body = envelope(event, p.tenantSlug);
  const started = new Date();
  const result = await sendWebhook(endpoint.url, body, deliveryHeaders(endpoint.secret, { ...event, body }, started.getTime()), {
    timeoutMs: webhookConfig.timeoutMs,
    allowLoopback: webhookConfig.allowLoopback,
  });
  const success = result.status >= 200 && result.status < 300;
  await putAttempt(p.tenantId, endpoint.id, {
    event_id: event.id,
    event_type: TEST_EVENT,
    attempt: 1,
    response_status: result.status,
    success,
    duration_ms: Math.round(result.durationMs),
    created_at: started.toISOString(),
    error: result.error ?? null,
    response_body: result.body || null,
    next_attempt_at: null,
    dead_lettered: false,
  });
  return { success, status: result.status, durationMs: Math.round(result.durationMs), responseBody: result.body };
}
