import { changeRequisitionStatus } from '../lib/domain/requisitions';
import { apiHandler, data, Reply } from '../lib/http';
import * as requisitionsApi from '../lib/api/requisitions';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  requisitionsApi.changeRequisitionStatus,
  async ({ principal, params, body }) => {
    const { requisition, etag } = await changeRequisitionStatus(principal, params.id, body);
    return new Reply(data(requisition), { headers: { ETag: etag } });
  },
  { idempotency },
);
