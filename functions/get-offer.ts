import { getOffer } from '../lib/domain/offers';
import { apiHandler, data } from '../lib/http';
import * as offersApi from '../lib/api/offers';

export const handler = apiHandler(offersApi.getOffer, async ({ principal, params }) => data(await getOffer(principal, params.id)));
