import { resendWebhookEvent } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('resend-webhook-event'), ({ principal, params, body }) =>
  resendWebhookEvent(principal, params.id, body),
);
