import { createRequisition } from '../lib/domain/requisitions';
import { apiHandler, data } from '../lib/http';
import * as requisitionsApi from '../lib/api/requisitions';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  requisitionsApi.createRequisition,
  async ({ principal, body }) => data(await createRequisition(principal, body)),
  { idempotency },
);
