import { sessionCookie, sessionIdFrom } from '../lib/auth/session';
import { confirmTwoFactor } from '../lib/domain/two-factor-enrol';
import { apiHandler, data, header, Reply } from '../lib/http';
import * as twoFactorApi from '../lib/api/two-factor';

export const handler = apiHandler(twoFactorApi.confirmTwoFactor, async ({ principal, body, event }) => {
  const { recovery_codes, signIn } = await confirmTwoFactor(principal, body.code, sessionIdFrom(header(event, 'cookie'))!);
  // Enrolled during a sign-in: the full session replaces the half-signed-in one.
  return new Reply(data({ recovery_codes }), signIn ? { cookies: [sessionCookie(signIn.sessionId)] } : {});
});
