import { createRequisition } from '../lib/domain/requisitions';
import { apiHandler, data, route } from '../lib/http';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  route('create-requisition'),
  async ({ principal, body }) => data(await createRequisition(principal, body)),
  { idempotency },
);
