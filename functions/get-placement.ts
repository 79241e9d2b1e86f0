import { getPlacement } from '../lib/domain/placements';
import { apiHandler, data } from '../lib/http';
import * as placementsApi from '../lib/api/placements';

export const handler = apiHandler(placementsApi.getPlacement, async ({ principal, params }) =>
  data(await getPlacement(principal, params.id)),
);
