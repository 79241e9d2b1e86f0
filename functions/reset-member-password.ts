import { resetPassword } from '../lib/domain/members';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('reset-member-password'), async ({ principal, params }) => resetPassword(principal, params.id));
