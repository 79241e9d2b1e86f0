import { updateCandidate } from '../lib/domain/candidates';
import { apiHandler, data } from '../lib/http';
import * as candidatesApi from '../lib/api/candidates';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  candidatesApi.updateCandidate,
  async ({ principal, params, body }) => data(await updateCandidate(principal, params.id, body)),
  { idempotency },
);
