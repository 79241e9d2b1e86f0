/**
 * How the public board routes answer (functions/list-board-jobs.ts, get-board-job.ts): CORS for
 * any origin (no credentials: nothing private is served), an ETag of the content with
 * If-None-Match answered 304, and a short shared-cache lifetime so the edge takes the load of a
 * busy careers page while a takedown reaches readers within seconds. Only these functions import it.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { BOARD_CACHE_CONTROL, BOARD_CORS_HEADERS } from './board-headers';
import { AppError } from './errors';
import { header, Reply } from './http';

/** Whether If-None-Match names this ETag (or `*`). */
export function notModified(event: APIGatewayProxyEvent, etag: string): boolean {
  const sent = header(event, 'if-none-match');
  if (!sent) return false;
  return sent
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}

/** The answer: 200 with the body, or 304 without it when the client has this version. */
export function boardReply<B>(event: APIGatewayProxyEvent, body: B, etag: string): Reply<B> {
  const headers = { ...BOARD_CORS_HEADERS, 'Cache-Control': BOARD_CACHE_CONTROL, ETag: etag };
  return notModified(event, etag) ? new Reply(body, { status: 304, headers }) : new Reply(body, { headers });
}

/** The one 404 of the public routes: unknown slug, unknown job, unpublished, not open. */
export const jobNotFound = () =>
  new AppError(404, 'job not found', { ...BOARD_CORS_HEADERS, 'Cache-Control': BOARD_CACHE_CONTROL }, { code: 'not_found' });
