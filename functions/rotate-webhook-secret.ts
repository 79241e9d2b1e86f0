import { rotateWebhookSecret } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('rotate-webhook-secret'), ({ principal, params, body }) =>
  rotateWebhookSecret(principal, params.id, body),
);
