import { createPlacement } from '../lib/domain/placement-create';
import { apiHandler, data } from '../lib/http';
import * as placementsApi from '../lib/api/placements';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  placementsApi.createPlacement,
  async ({ principal, params, body }) => data(await createPlacement(principal, params.id, body)),
  { idempotency },
);
