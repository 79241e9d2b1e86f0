import { addMember } from '../lib/domain/members';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('add-member'), async ({ principal, body }) => data(await addMember(principal, body)));
