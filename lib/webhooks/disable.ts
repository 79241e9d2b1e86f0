/**
 * The service disabled an endpoint: tell the workspace. A WARN log line and a metric for
 * operators, and a webhook.endpoint_disabled event to the workspace's other active endpoints.
 */
import { createHash } from 'node:crypto';
import { logger } from '../logger';
import { emitMetric } from '../metrics';
import { ENDPOINT_DISABLED_EVENT } from '../model';
import { listEndpoints, type Endpoint } from '../store/webhook-endpoints';
import { putEvent } from '../store/webhook-events';
import { envelope } from './events';
import { enqueue, type DeliveryMessage } from './queue';

export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export async function endpointDisabled(msg: DeliveryMessage, endpoint: Endpoint, reason: string, at: string): Promise<void> {
  logger.warn('webhook disabled', { tenant_id: msg.tenantId, webhook_id: endpoint.id, reason });
  emitMetric('EndpointsDisabled');
  const others = (await listEndpoints(msg.tenantId)).filter((e) => e.active && e.id !== endpoint.id);
  if (!others.length) return;
  // The envelope names the workspace by slug; the failing event's own envelope carries it.
  const tenantSlug = String((parseJson(msg.body) as { tenantSlug?: unknown } | undefined)?.tenantSlug ?? '');
  const id = `evt_${createHash('sha256').update(`${ENDPOINT_DISABLED_EVENT}:${endpoint.id}:${at}`).digest('hex').slice(0, 32)}`;
  const body = envelope(
    { id, type: ENDPOINT_DISABLED_EVENT, tenantId: msg.tenantId, timestamp: at, data: { webhookId: endpoint.id, reason, disabledAt: at } },
    tenantSlug,
  );
  // Kept once here, not by each of the deliveries.
  await putEvent(msg.tenantId, { event_id: id, event_type: ENDPOINT_DISABLED_EVENT, body });
  await enqueue(
    others.map((e) => ({
      v: 1 as const,
      eventId: id,
      eventType: ENDPOINT_DISABLED_EVENT,
      tenantId: msg.tenantId,
      endpointId: e.id,
      body,
      kept: true as const,
    })),
  );
}
