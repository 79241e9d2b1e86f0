import { createApiToken } from '../lib/domain/identity';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('create-token'), async ({ principal, body }) => ({
  data: await createApiToken(principal, body.name, body.scopes),
}));
