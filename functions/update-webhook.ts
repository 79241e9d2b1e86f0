import { updateWebhook } from '../lib/domain/webhooks';
import { apiHandler } from '../lib/http';
import * as webhooksApi from '../lib/api/webhooks';

export const handler = apiHandler(webhooksApi.updateWebhook, ({ principal, params, body }) => updateWebhook(principal, params.id, body));
