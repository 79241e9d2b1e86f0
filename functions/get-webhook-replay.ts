import { getWebhookReplay } from '../lib/domain/webhooks';
import { apiHandler, data } from '../lib/http';
import * as webhooksApi from '../lib/api/webhooks';

export const handler = apiHandler(webhooksApi.getWebhookReplay, async ({ principal, params }) =>
  data(await getWebhookReplay(principal, params.id)),
);
