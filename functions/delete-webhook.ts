import { deleteWebhook } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('delete-webhook'), ({ principal, params }) => deleteWebhook(principal, params.id));
