import { reactivateMember } from '../lib/domain/members';
import { apiHandler, data } from '../lib/http';
import * as membersApi from '../lib/api/members';

export const handler = apiHandler(membersApi.reactivateMember, async ({ principal, params }) =>
  data(await reactivateMember(principal, params.id)),
);
