import { listCandidates } from '../lib/domain/candidates';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('list-candidates'), ({ principal, query }) =>
  listCandidates(principal.tenantId, query),
);
