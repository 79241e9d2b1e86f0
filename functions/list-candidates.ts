import { listCandidates } from '../lib/domain/candidates';
import { apiHandler, page, route } from '../lib/http';

export const handler = apiHandler(route('list-candidates'), async ({ principal, query }) => page(await listCandidates(principal, query)));
