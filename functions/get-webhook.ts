import { getWebhook } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('get-webhook'), ({ principal, params }) => getWebhook(principal, params.id));
