import { listWebhooks } from '../lib/domain/webhooks';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('list-webhooks'), async ({ principal, query }) => data(await listWebhooks(principal, query)));
