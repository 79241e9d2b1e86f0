import { removeMember } from '../lib/domain/members';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('remove-member'), async ({ principal, params }) => removeMember(principal, params.id));
