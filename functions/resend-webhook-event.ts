import { resendEvent } from '../lib/domain/webhooks';
import { apiHandler, route } from '../lib/http';
// Fails the cold start at once when the queue is not configured.
import '../lib/webhooks/queue';

export const handler = apiHandler(route('resend-webhook-event'), ({ principal, params, body }) => resendEvent(principal, params.id, body));
