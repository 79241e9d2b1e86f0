import { listMembers } from '../lib/domain/members';
import { apiHandler, data } from '../lib/http';
import * as membersApi from '../lib/api/members';

export const handler = apiHandler(membersApi.listMembers, async ({ principal }) => data(await listMembers(principal)));
