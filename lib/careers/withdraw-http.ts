/**
 * How the withdraw pages answer (functions/careers-withdraw-page.ts, careers-withdraw.ts): HTML
 * with the careers CSP, never cached, no referrer (the token is in the URL and the page), and no
 * index. A body posted urlencoded (the confirm form without JavaScript) is read as the JSON the
 * route takes. Any refusal (a malformed slug or token, a token that does not hold) answers the one
 * neutral page with 404; a failure answers a page with no detail. Only those functions import it.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { header } from '../headers';
import { apiHandler, type ApiRequest, Reply } from '../http';
import type { RouteDef } from '../routes';
import { FORM_MEDIA_TYPE } from './form-post';
import { CAREERS_CSP } from './page';
import { linkNotWorkingPage, tryLaterPage } from './withdraw-page';

const HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': CAREERS_CSP,
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
};

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

function asJson(event: APIGatewayProxyEvent): APIGatewayProxyEvent {
  const type = header(event, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== FORM_MEDIA_TYPE) return event;
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  const t = new URLSearchParams(raw).get('t');
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'content-type'));
  return {
    ...event,
    headers: { ...headers, 'content-type': 'application/json' },
    multiValueHeaders: {},
    body: JSON.stringify(t === null ? {} : { t }),
    isBase64Encoded: false,
  };
}

/** `render` answers a page, or undefined for the neutral 404 page. */
export function withdrawHandler<R extends RouteDef>(route: R, render: (req: ApiRequest<R>) => Promise<string | undefined>): Handler {
  const inner = apiHandler(route, async (req: ApiRequest<R>) => {
    const html = await render(req);
    return html === undefined ? new Reply('' as never, { status: 404 }) : new Reply(html as never, { status: 200 });
  }) as unknown as Handler;
  return async (event, context) => {
    const res = await inner(asJson(event), context);
    const headers = { ...res.headers, ...HEADERS };
    if (res.statusCode === 200) return { ...res, headers, body: JSON.parse(res.body) as string };
    if (res.statusCode < 500) return { statusCode: 404, headers, body: linkNotWorkingPage() };
    return { statusCode: res.statusCode, headers, body: tryLaterPage() };
  };
}
