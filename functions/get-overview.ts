import { getOverview } from '../lib/domain/overview';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('get-overview'), async ({ principal }) => data(await getOverview(principal)));
