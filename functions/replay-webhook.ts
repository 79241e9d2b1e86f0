import { startReplay } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('replay-webhook'), ({ principal, params, body }) => startReplay(principal, params.id, body));
