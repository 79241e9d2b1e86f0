import { testWebhook } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('test-webhook'), ({ principal, params }) => testWebhook(principal, params.id));
