import { changeRole } from '../lib/domain/members';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('change-member-role'), async ({ principal, params, body }) =>
  changeRole(principal, params.id, body.role),
);
