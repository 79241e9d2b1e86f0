import { getCandidateDetail } from '../lib/domain/candidates';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('get-candidate'), async ({ principal, params }) => ({
  data: await getCandidateDetail(principal.tenantId, params.id),
}));
