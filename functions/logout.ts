import { clearedSessionCookie, sessionIdFrom } from '../lib/auth/session';
import { logout } from '../lib/domain/sessions';
import { apiHandler, header, Reply, route } from '../lib/http';

export const handler = apiHandler(
  route('logout'),
  async ({ principal, event }) =>
    new Reply(await logout(principal, sessionIdFrom(header(event, 'cookie'))), { cookies: [clearedSessionCookie()] }),
);
