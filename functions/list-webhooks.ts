import { listWebhooks } from '../lib/domain/webhooks';
import { apiHandler, data } from '../lib/http';
import * as webhooksApi from '../lib/api/webhooks';

export const handler = apiHandler(webhooksApi.listWebhooks, async ({ principal, query }) => data(await listWebhooks(principal, query)));
