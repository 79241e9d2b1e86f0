import { addMember } from '../lib/domain/members';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('add-member'), async ({ principal, body }) => addMember(principal, body.email, body.role));
