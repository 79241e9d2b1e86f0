import { addMember } from '../lib/domain/members';
import { apiHandler, data } from '../lib/http';
import * as membersApi from '../lib/api/members';

export const handler = apiHandler(membersApi.addMember, async ({ principal, body }) => data(await addMember(principal, body)));
