import { deleteWebhook } from '../lib/domain/webhooks';
import { apiHandler } from '../lib/http';
import * as webhooksApi from '../lib/api/webhooks';

export const handler = apiHandler(webhooksApi.deleteWebhook, ({ principal, params }) => deleteWebhook(principal, params.id));
