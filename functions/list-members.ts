import { listMembers } from '../lib/domain/members';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('list-members'), async ({ principal }) => listMembers(principal));
