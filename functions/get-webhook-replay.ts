import { getWebhookReplay } from '../lib/domain/webhooks';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('get-webhook-replay'), async ({ principal, params }) =>
  data(await getWebhookReplay(principal, params.id)),
);
