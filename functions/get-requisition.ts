import { getRequisition } from '../lib/domain/requisitions';
import { apiHandler, data, Reply, route } from '../lib/http';

export const handler = apiHandler(route('get-requisition'), async ({ principal, params }) => {
  const { requisition, etag } = await getRequisition(principal, params.id);
  return new Reply(data(requisition), { headers: { ETag: etag } });
});
