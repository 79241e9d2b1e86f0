import { getReplay } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('get-webhook-replay'), ({ principal, params }) => getReplay(principal, params.id));
