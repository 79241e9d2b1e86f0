import { sessionCookie } from '../lib/auth/session';
import { clientAddress } from '../lib/edge';
import { login } from '../lib/domain/sessions';
import { apiHandler, data, Reply, requestOf } from '../lib/http';
import * as sessionApi from '../lib/api/session';

export const handler = apiHandler(sessionApi.login, async ({ body, event }) => {
  const { sessionId, session } = await login(body.email, body.password, clientAddress(event), Date.now(), requestOf(event));
  return new Reply(data(session), { cookies: [sessionCookie(sessionId)] });
});
