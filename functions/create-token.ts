import { createToken } from '../lib/domain/tokens';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('create-token'), async ({ principal, body }) => data(await createToken(principal, body)));
