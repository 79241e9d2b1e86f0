import { changeMemberRole } from '../lib/domain/members';
import { apiHandler, data } from '../lib/http';
import * as membersApi from '../lib/api/members';

export const handler = apiHandler(membersApi.changeMemberRole, async ({ principal, params, body }) =>
  data(await changeMemberRole(principal, params.id, body.role)),
);
