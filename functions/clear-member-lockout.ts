import { clearMemberLockout } from '../lib/domain/members';
import { apiHandler } from '../lib/http';
import * as membersApi from '../lib/api/members';

export const handler = apiHandler(membersApi.clearMemberLockout, ({ principal, params }) => clearMemberLockout(principal, params.id));
