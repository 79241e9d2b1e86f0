import { eraseCandidate } from '../lib/domain/erasure';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('erase-candidate'), async ({ principal, params }) =>
  data(await eraseCandidate(principal, params.id)),
);
