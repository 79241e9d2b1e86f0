import { removeMember } from '../lib/domain/members';
import { apiHandler } from '../lib/http';
import * as membersApi from '../lib/api/members';

export const handler = apiHandler(membersApi.removeMember, async ({ principal, params }) => removeMember(principal, params.id));
