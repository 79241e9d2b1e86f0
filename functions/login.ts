import { sessionCookie } from '../lib/auth/session';
import { clientAddress } from '../lib/edge';
import { login } from '../lib/domain/identity';
import { apiHandler, Reply, route } from '../lib/http';

export const handler = apiHandler(route('login'), async ({ body, event }) => {
  const { sessionId, data } = await login(body.email, body.password, clientAddress(event));
  return new Reply({ data }, { cookies: [sessionCookie(sessionId)] });
});
