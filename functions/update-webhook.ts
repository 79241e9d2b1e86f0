import { updateWebhook } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('update-webhook'), ({ principal, params, body }) => updateWebhook(principal, params.id, body));
