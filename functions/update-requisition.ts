import { updateRequisition } from '../lib/domain/requisitions';
import { apiHandler, data, header, Reply } from '../lib/http';
import * as requisitionsApi from '../lib/api/requisitions';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  requisitionsApi.updateRequisition,
  async ({ principal, params, body, event }) => {
    const { requisition, etag } = await updateRequisition(principal, params.id, body, header(event, 'if-match'));
    return new Reply(data(requisition), { headers: { ETag: etag } });
  },
  { idempotency },
);
