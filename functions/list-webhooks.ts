import { listWebhooks } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('list-webhooks'), ({ principal, query }) => listWebhooks(principal, query));
