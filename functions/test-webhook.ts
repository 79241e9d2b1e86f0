import { testWebhook } from '../lib/domain/webhooks';
import { apiHandler } from '../lib/http';
import * as webhooksApi from '../lib/api/webhooks';

export const handler = apiHandler(webhooksApi.testWebhook, ({ principal, params }) => testWebhook(principal, params.id));
