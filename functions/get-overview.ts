import { overview } from '../lib/domain/overview';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('get-overview'), async ({ principal }) => overview(principal.tenantId));
