import { listInterviews } from '../lib/domain/interviews';
import { apiHandler } from '../lib/http';
import * as interviewsApi from '../lib/api/interviews';

export const handler = apiHandler(interviewsApi.listInterviews, async ({ principal, query }) => {
  const { items, next_cursor } = await listInterviews(principal, query);
  return { data: items, next_cursor };
});
