import { getCandidate } from '../lib/domain/candidates';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('get-candidate'), async ({ principal, params }) => data(await getCandidate(principal, params.id)));
