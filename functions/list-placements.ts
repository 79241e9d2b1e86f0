import { listPlacements } from '../lib/domain/placements';
import { apiHandler, page } from '../lib/http';
import * as placementsApi from '../lib/api/placements';

export const handler = apiHandler(placementsApi.listPlacements, async ({ principal, query }) =>
  page(await listPlacements(principal, query)),
);
