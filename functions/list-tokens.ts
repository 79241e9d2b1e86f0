import { listTokens } from '../lib/domain/tokens';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('list-tokens'), async ({ principal }) => data(await listTokens(principal)));
