import { resetMemberPassword } from '../lib/domain/members';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('reset-member-password'), async ({ principal, params }) =>
  data(await resetMemberPassword(principal, params.id)),
);
