/**
 * The console's only way to the API: openapi-fetch typed by schema.d.ts, which
 * openapi-typescript generates from the project's own OpenAPI document (lib/openapi.ts).
 * Same origin, so the session cookie rides along and no CORS is involved.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };

export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

/** An answer other than success, carrying the API's own `{ error }` sentence. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** Seconds from Retry-After (429), when the server sent one. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let onExpired: (() => void) | undefined;
/** Called when a signed-in request answers 401: the session ended (idle, absolute lifetime, logout elsewhere). */
export function onSessionExpired(fn: () => void) {
  onExpired = fn;
}

api.use({
  onResponse({ request, response }) {
    const login = request.method === 'POST' && new URL(request.url).pathname === '/api/session';
    const publicDoc = new URL(request.url).pathname.startsWith('/api/v1/');
    if (response.status === 401 && !login && !publicDoc) onExpired?.();
    return undefined;
  },
});

const messageOf = (error: unknown, status: number) =>
  error && typeof error === 'object' && 'error' in error && typeof error.error === 'string'
    ? error.error
    : `The server answered ${status} without an explanation.`;

/**
 * Await an openapi-fetch call and return its success body, or throw an ApiError with the
 * API's `{ error }` message (or a plain sentence when the network failed).
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiError('Could not reach the server. Check your connection and try again.', 0);
  }
  const { data, error, response } = result;
  if (response.ok && data !== undefined) return data;
  const retry = Number(response.headers.get('retry-after'));
  throw new ApiError(messageOf(error, response.status), response.status, Number.isFinite(retry) && retry > 0 ? retry : undefined);
}

export const errorText = (err: unknown) => (err instanceof ApiError ? err.message : err instanceof Error ? err.message : String(err));
