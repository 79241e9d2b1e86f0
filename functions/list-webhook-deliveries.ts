import { listWebhookDeliveries } from '../lib/domain/webhooks';
import { apiHandler, page, route } from '../lib/http';

export const handler = apiHandler(route('list-webhook-deliveries'), async ({ principal, params, query }) =>
  page(await listWebhookDeliveries(principal, params.id, query)),
);
