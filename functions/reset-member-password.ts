import { resetMemberPassword } from '../lib/domain/members';
import { apiHandler, data } from '../lib/http';
import * as membersApi from '../lib/api/members';

export const handler = apiHandler(membersApi.resetMemberPassword, async ({ principal, params }) =>
  data(await resetMemberPassword(principal, params.id)),
);
