import { listWebhookDeliveries } from '../lib/domain/webhooks';
import { apiHandler, page } from '../lib/http';
import * as webhooksApi from '../lib/api/webhooks';

export const handler = apiHandler(webhooksApi.listWebhookDeliveries, async ({ principal, params, query }) =>
  page(await listWebhookDeliveries(principal, params.id, query)),
);
