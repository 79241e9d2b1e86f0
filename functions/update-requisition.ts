import { updateRequisition } from '../lib/domain/requisitions';
import { apiHandler, data, header, Reply, route } from '../lib/http';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  route('update-requisition'),
  async ({ principal, params, body, event }) => {
    const { requisition, etag } = await updateRequisition(principal, params.id, body, header(event, 'if-match'));
    return new Reply(data(requisition), { headers: { ETag: etag } });
  },
  { idempotency },
);
