import { replayWebhook } from '../lib/domain/webhooks';
import { apiHandler, data, Reply, route } from '../lib/http';

export const handler = apiHandler(route('replay-webhook'), async ({ principal, params, body }) => {
  const { job, started } = await replayWebhook(principal, params.id, body);
  // A job that already runs is answered as it is: 200, not the route's 202.
  return started ? data(job) : new Reply(data(job), { status: 200 });
});
