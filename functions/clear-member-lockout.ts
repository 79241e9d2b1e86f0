import { clearLockout } from '../lib/domain/members';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('clear-member-lockout'), async ({ principal, params }) => clearLockout(principal, params.id));
