import { createCandidate } from '../lib/domain/candidates';
import { apiHandler, data, route } from '../lib/http';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(route('create-candidate'), async ({ principal, body }) => data(await createCandidate(principal, body)), {
  idempotency,
});
