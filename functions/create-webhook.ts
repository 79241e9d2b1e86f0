import { createWebhook } from '../lib/domain/webhooks';
import { apiHandler } from '../lib/http';
import * as webhooksApi from '../lib/api/webhooks';

export const handler = apiHandler(webhooksApi.createWebhook, ({ principal, body }) => createWebhook(principal, body));
