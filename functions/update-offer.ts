import { updateOffer } from '../lib/domain/offers';
import { apiHandler, data } from '../lib/http';
import * as offersApi from '../lib/api/offers';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  offersApi.updateOffer,
  async ({ principal, params, body }) => data(await updateOffer(principal, params.id, body)),
  { idempotency },
);
