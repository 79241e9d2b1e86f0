import { getSession } from '../lib/domain/sessions';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('get-session'), async ({ principal }) => data(await getSession(principal)));
