import { currentUser } from '../lib/domain/identity';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('get-session'), async ({ principal }) => ({
  data: await currentUser(principal),
}));
