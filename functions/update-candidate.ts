import { updateCandidate } from '../lib/domain/candidates';
import { apiHandler, data, route } from '../lib/http';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  route('update-candidate'),
  async ({ principal, params, body }) => data(await updateCandidate(principal, params.id, body)),
  { idempotency },
);
