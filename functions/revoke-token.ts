import { revokeToken } from '../lib/domain/tokens';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('revoke-token'), ({ principal, params }) => revokeToken(principal, params.id));
