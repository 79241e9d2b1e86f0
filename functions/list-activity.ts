import { listActivity } from '../lib/domain/activity';
import { apiHandler, page } from '../lib/http';
import * as activityApi from '../lib/api/activity';

export const handler = apiHandler(activityApi.listActivity, async ({ principal, params, query }) =>
  page(await listActivity(principal, params.id, query)),
);
