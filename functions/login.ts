import { sessionCookie } from '../lib/auth/session';
import { login } from '../lib/domain/identity';
import { apiHandler, Reply, route } from '../lib/http';

export const handler = apiHandler(route('login'), async ({ body }) => {
  const { sessionId, data } = await login(body.email, body.password);
  return new Reply({ data }, { cookies: [sessionCookie(sessionId)] });
});
