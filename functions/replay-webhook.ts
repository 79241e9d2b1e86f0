import { startReplay } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';
// Fails the cold start at once when the queue is not configured.
import '../lib/webhooks/queue';

export const handler = apiHandler(route('replay-webhook'), ({ principal, params, body }) => startReplay(principal, params.id, body));
