import { createCandidate } from '../lib/domain/candidates';
import { apiHandler, data } from '../lib/http';
import * as candidatesApi from '../lib/api/candidates';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  candidatesApi.createCandidate,
  async ({ principal, body }) => data(await createCandidate(principal, body)),
  {
    idempotency,
  },
);
