import { replayWebhook } from '../lib/domain/webhook-queueing';
import { apiHandler, data, Reply } from '../lib/http';
import * as webhooksApi from '../lib/api/webhooks';

export const handler = apiHandler(webhooksApi.replayWebhook, async ({ principal, params, body }) => {
  const { job, started } = await replayWebhook(principal, params.id, body);
  // A job that already runs is answered as it is: 200, not the route's 202.
  return started ? data(job) : new Reply(data(job), { status: 200 });
});
