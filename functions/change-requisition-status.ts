import { changeRequisitionStatus } from '../lib/domain/requisitions';
import { apiHandler, data, Reply, route } from '../lib/http';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  route('change-requisition-status'),
  async ({ principal, params, body }) => {
    const { requisition, etag } = await changeRequisitionStatus(principal, params.id, body);
    return new Reply(data(requisition), { headers: { ETag: etag } });
  },
  { idempotency },
);
