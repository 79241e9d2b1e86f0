/**
 * How the careers pages answer: HTML with the careers CSP, an ETag (If-None-Match answers 304)
 * and the board's edge lifetime. Built on apiHandler (logging, time budget, error boundary),
 * whose JSON answer of the page string is turned into the page here; any 400 or 404 (a malformed
 * or unknown slug or id) answers the one not-found page. Only the careers functions import it.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { BOARD_CACHE_CONTROL } from '../board-headers';
import { notModified } from '../board-http';
import { contentEtag } from '../domain/boards';
import { AppError } from '../errors';
import { apiHandler, type ApiRequest, Reply } from '../http';
import type { RouteDef } from '../routes';
import { CAREERS_CSP, notFoundPage } from './page';

const HTML_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': CAREERS_CSP,
  'Cache-Control': BOARD_CACHE_CONTROL,
};

/** Thrown by a careers handler for anything it does not show. */
export const pageNotFound = () => new AppError(404, 'page not found', {}, { code: 'not_found' });

/**
 * A page, or a page with what its ETag is computed over instead of the whole page: a page that
 * differs on every read (a form token) is still the same version for a client's If-None-Match.
 */
export type Rendered = string | { html: string; version: unknown };

export function careersHandler<R extends RouteDef>(route: R, render: (req: ApiRequest<R>) => Promise<Rendered>) {
  const inner = apiHandler(route, async (req: ApiRequest<R>) => {
    const rendered = await render(req);
    const html = typeof rendered === 'string' ? rendered : rendered.html;
    const etag = contentEtag(typeof rendered === 'string' ? html : rendered.version);
    return new Reply(html as never, { status: notModified(req.event, etag) ? 304 : 200, headers: { ETag: etag } });
  });
  return async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const res: APIGatewayProxyResult = await (inner as unknown as (e: APIGatewayProxyEvent, c: Context) => Promise<APIGatewayProxyResult>)(
      event,
      context,
    );
    const headers = { ...res.headers, ...HTML_HEADERS };
    if (res.statusCode === 200) return { ...res, headers, body: JSON.parse(res.body) as string };
    if (res.statusCode === 304) return { ...res, headers };
    if (res.statusCode === 400 || res.statusCode === 404) return { statusCode: 404, headers, body: notFoundPage() };
    return res;
  };
}
