import { listDeliveries } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('list-webhook-deliveries'), ({ principal, params, query }) => listDeliveries(principal, params.id, query));
