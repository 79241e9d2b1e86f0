import { getWebhook } from '../lib/domain/webhooks';
import { apiHandler } from '../lib/http';
import * as webhooksApi from '../lib/api/webhooks';

export const handler = apiHandler(webhooksApi.getWebhook, ({ principal, params }) => getWebhook(principal, params.id));
