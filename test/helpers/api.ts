/**
 * A typed client of the API for tests: openapi-fetch over the types openapi-typescript generates
 * from the project's OpenAPI document, as the console's client is (console/scripts/api-types.ts
 * writes console/src/api/schema.d.ts; `npm test` and `npm run typecheck` run it before tsc).
 * Paths, parameters, bodies and answers are typed; every answer is still held to its route's
 * schemas and to the served document, as `stack.call` holds it.
 *
 *   const api = apiClient(stack, { token });
 *   const { data, response } = await api.POST('/api/v1/candidates', { body: { name: 'Ada' } });
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../console/src/api/schema';
import type { Stack } from './stack';

export type Api = Client<paths>;

export function apiClient(stack: Stack, auth: { token?: string; cookie?: string } = {}): Api {
  return createClient<paths>({
    baseUrl: stack.url,
    headers: {
      ...(auth.token && { Authorization: `Bearer ${auth.token}` }),
      ...(auth.cookie && { Cookie: auth.cookie }),
    },
    fetch: async (request: Request) => {
      const url = new URL(request.url);
      const res = await fetch(request);
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      stack.check(request.method, `${url.pathname}${url.search}`, res.status, body);
      // A 204's Response must have no body at all, not an empty one.
      const nullBody = [101, 204, 205, 304].includes(res.status);
      return new Response(nullBody ? null : text, { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  });
}
