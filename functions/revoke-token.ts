import { revoke } from '../lib/domain/identity';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('revoke-token'), ({ principal, params }) => revoke(principal, params.id));
