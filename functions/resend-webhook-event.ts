import { resendWebhookEvent } from '../lib/domain/webhook-queueing';
import { apiHandler } from '../lib/http';
import * as webhooksApi from '../lib/api/webhooks';

export const handler = apiHandler(webhooksApi.resendWebhookEvent, ({ principal, params, body }) =>
  resendWebhookEvent(principal, params.id, body),
);
