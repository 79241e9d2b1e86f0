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
    /**
     * The body's `code`, `field` (the input at fault, as sent), `allowed` (next statuses) and
     * `existing_id` (the record a duplicate_candidate or email_taken names), when it had them.
     */
    readonly detail: { code?: string; field?: string; allowed?: string[]; existingId?: string } = {},
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

const detailOf = (error: unknown): ApiError['detail'] => {
  if (!error || typeof error !== 'object') return {};
  const e = error as Record<string, unknown>;
  return {
    ...(typeof e.code === 'string' && { code: e.code }),
    ...(typeof e.field === 'string' && { field: e.field }),
    ...(Array.isArray(e.allowed) && { allowed: e.allowed.filter((a): a is string => typeof a === 'string') }),
    ...(typeof e.existing_id === 'string' && { existingId: e.existing_id }),
  };
};

const messageOf = (error: unknown, status: number) =>
  error && typeof error === 'object' && 'error' in error && typeof error.error === 'string'
    ? error.error
    : `The server answered ${status} without an explanation.`;

/**
 * Await an openapi-fetch call and return its success body, or throw an ApiError with the
 * API's `{ error }` message (or a plain sentence when the network failed).
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  return (await unwrapWithResponse(call)).data;
}

/** `unwrap`, keeping the response for its headers (the ETag a later If-Match sends back). */
export async function unwrapWithResponse<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<{ data: T; response: Response }> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiError('Could not reach the server. Check your connection and try again.', 0);
  }
  const { data, error, response } = result;
  if (response.ok && data !== undefined) return { data, response };
  const retry = Number(response.headers.get('retry-after'));
  throw new ApiError(
    messageOf(error, response.status),
    response.status,
    Number.isFinite(retry) && retry > 0 ? retry : undefined,
    detailOf(error),
  );
}

export const errorText = (err: unknown) => (err instanceof ApiError ? err.message : err instanceof Error ? err.message : String(err));
