import { listMembers } from '../lib/domain/members';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('list-members'), async ({ principal }) => data(await listMembers(principal)));
