import { clearedSessionCookie, sessionIdFrom } from '../lib/auth/session';
import { logout } from '../lib/domain/sessions';
import { apiHandler, header, Reply } from '../lib/http';
import * as sessionApi from '../lib/api/session';

export const handler = apiHandler(
  sessionApi.logout,
  async ({ principal, event }) =>
    new Reply(await logout(principal, sessionIdFrom(header(event, 'cookie'))), { cookies: [clearedSessionCookie()] }),
);
