import { sessionIdFrom } from '../lib/auth/session';
import { clientAddress } from '../lib/edge';
import { changePassword } from '../lib/domain/sessions';
import { apiHandler, header } from '../lib/http';
import * as sessionApi from '../lib/api/session';

export const handler = apiHandler(sessionApi.changePassword, async ({ principal, body, event }) =>
  // The session authorizer let the request in, so the cookie holds a valid session id.
  changePassword(principal, body, sessionIdFrom(header(event, 'cookie'))!, clientAddress(event)),
);
