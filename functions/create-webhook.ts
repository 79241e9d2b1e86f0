import { createWebhook } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('create-webhook'), ({ principal, body }) => createWebhook(principal, body));
