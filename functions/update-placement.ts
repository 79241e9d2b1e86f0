import { updatePlacement } from '../lib/domain/placement-writes';
import { apiHandler, data } from '../lib/http';
import * as placementsApi from '../lib/api/placements';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  placementsApi.updatePlacement,
  async ({ principal, params, body }) => data(await updatePlacement(principal, params.id, body)),
  { idempotency },
);
