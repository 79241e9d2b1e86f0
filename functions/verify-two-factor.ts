import { sessionCookie, sessionIdFrom } from '../lib/auth/session';
import { clientAddress } from '../lib/edge';
import { verifyTwoFactor } from '../lib/domain/two-factor-sign-in';
import { apiHandler, data, header, Reply } from '../lib/http';
import * as twoFactorApi from '../lib/api/two-factor';

export const handler = apiHandler(twoFactorApi.verifyTwoFactor, async ({ principal, body, event }) => {
  // The session authorizer let the request in, so the cookie holds a valid (half-signed-in) session id.
  const pending = sessionIdFrom(header(event, 'cookie'))!;
  const { sessionId, session } = await verifyTwoFactor(principal, body, pending, clientAddress(event));
  return new Reply(data(session), { cookies: [sessionCookie(sessionId)] });
});
