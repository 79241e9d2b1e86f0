import { clearMemberLockout } from '../lib/domain/members';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('clear-member-lockout'), ({ principal, params }) => clearMemberLockout(principal, params.id));
