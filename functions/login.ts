import { sessionCookie } from '../lib/auth/session';
import { clientAddress } from '../lib/edge';
import { login } from '../lib/domain/sessions';
import { apiHandler, data, Reply, requestOf, route } from '../lib/http';

export const handler = apiHandler(route('login'), async ({ body, event }) => {
  const { sessionId, session } = await login(body.email, body.password, clientAddress(event), Date.now(), requestOf(event));
  return new Reply(data(session), { cookies: [sessionCookie(sessionId)] });
});
