import { getPipeline } from '../lib/domain/pipeline';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('get-pipeline'), async ({ principal }) => ({
  data: await getPipeline(principal.tenantId),
}));
