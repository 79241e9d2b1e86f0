import { getRequisition } from '../lib/domain/requisitions';
import { apiHandler, data, Reply } from '../lib/http';
import * as requisitionsApi from '../lib/api/requisitions';

export const handler = apiHandler(requisitionsApi.getRequisition, async ({ principal, params }) => {
  const { requisition, etag } = await getRequisition(principal, params.id);
  return new Reply(data(requisition), { headers: { ETag: etag } });
});
