import { clearedSessionCookie, sessionIdFrom } from '../lib/auth/session';
import { logout } from '../lib/domain/identity';
import { apiHandler, header, Reply, route } from '../lib/http';

export const handler = apiHandler(route('logout'), async ({ event }) => {
  const sessionId = sessionIdFrom(header(event, 'cookie'));
  if (sessionId) await logout(sessionId);
  return new Reply({ success: true }, { cookies: [clearedSessionCookie()] });
});
