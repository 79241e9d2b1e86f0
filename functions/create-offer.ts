import { createOffer } from '../lib/domain/offers';
import { apiHandler, data } from '../lib/http';
import * as offersApi from '../lib/api/offers';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  offersApi.createOffer,
  async ({ principal, params, body }) => data(await createOffer(principal, params.id, body)),
  { idempotency },
);
