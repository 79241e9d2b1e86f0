import { changeMemberRole } from '../lib/domain/members';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('change-member-role'), async ({ principal, params, body }) =>
  data(await changeMemberRole(principal, params.id, body.role)),
);
