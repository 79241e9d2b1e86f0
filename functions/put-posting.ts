import { putPosting } from '../lib/domain/postings';
import { apiHandler, data, Reply } from '../lib/http';
import * as postingsApi from '../lib/api/postings';

export const handler = apiHandler(postingsApi.putPosting, async ({ principal, params, body }) => {
  const { posting, etag } = await putPosting(principal, params.id, body);
  return new Reply(data(posting), { headers: { ETag: etag } });
});
