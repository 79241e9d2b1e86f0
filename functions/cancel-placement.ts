import { cancelPlacement } from '../lib/domain/placement-writes';
import { apiHandler, data } from '../lib/http';
import * as placementsApi from '../lib/api/placements';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  placementsApi.cancelPlacement,
  async ({ principal, params, body }) => data(await cancelPlacement(principal, params.id, body)),
  { idempotency },
);
