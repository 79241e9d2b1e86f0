import { getPosting } from '../lib/domain/postings';
import { apiHandler, data, Reply } from '../lib/http';
import * as postingsApi from '../lib/api/postings';

export const handler = apiHandler(postingsApi.getPosting, async ({ principal, params }) => {
  const { posting, etag } = await getPosting(principal, params.id);
  return new Reply(data(posting), { headers: { ETag: etag } });
});
