import { listApiTokens } from '../lib/domain/identity';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('list-tokens'), async ({ principal }) => ({
  data: await listApiTokens(principal),
}));
