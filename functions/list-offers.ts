import { listOffers } from '../lib/domain/offers';
import { apiHandler, data } from '../lib/http';
import * as offersApi from '../lib/api/offers';

export const handler = apiHandler(offersApi.listOffers, async ({ principal, params }) => data(await listOffers(principal, params.id)));
