import { changeOfferStatus } from '../lib/domain/offers';
import { apiHandler, data } from '../lib/http';
import * as offersApi from '../lib/api/offers';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  offersApi.changeOfferStatus,
  async ({ principal, params, body }) => data(await changeOfferStatus(principal, params.id, body)),
  { idempotency },
);
