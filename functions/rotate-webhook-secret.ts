import { rotateWebhookSecret } from '../lib/domain/webhooks';
import { apiHandler } from '../lib/http';
import * as webhooksApi from '../lib/api/webhooks';

export const handler = apiHandler(webhooksApi.rotateWebhookSecret, ({ principal, params, body }) =>
  rotateWebhookSecret(principal, params.id, body),
);
