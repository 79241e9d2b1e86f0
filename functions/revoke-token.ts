import { revokeApiToken } from '../lib/domain/identity';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('revoke-token'), ({ principal, params }) => revokeApiToken(principal, params.id));
