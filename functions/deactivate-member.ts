import { deactivateMember } from '../lib/domain/members';
import { apiHandler, data } from '../lib/http';
import * as membersApi from '../lib/api/members';

export const handler = apiHandler(membersApi.deactivateMember, async ({ principal, params }) =>
  data(await deactivateMember(principal, params.id)),
);
