/**
 * The HTTP boundary shared by every API handler: middy wiring, query/body validation against
 * the route's schemas (lib/validate.ts parse), and the one place where errors become status codes and `{ error }`.
 */
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod/mini';
import { clientAddress, siteHosts } from './edge';
import { header } from './headers';
import type { SessionPrincipal, TokenPrincipal } from './domain/principal';
import type { AuditRequest } from './store/audit';
import {
  AppError,
  errorBody,
  ForbiddenError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
  type ErrorCode,
} from './errors';
import type { idempotent as Idempotent } from './idempotency';
import { logger } from './logger';
import { emitMetric, metrics } from './metrics';
import { consoleTwin, type Route } from './api/route';
import type { RouteDef } from './routes';
import { API_SECURITY_HEADERS } from './security-headers';
import { withTimeBudget } from './time-budget';
import { parse } from './validate';
import { roleFrom } from './model';
import { ROUTE_LINES } from './route-lines';

type Out<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

export type { SessionPrincipal, TokenPrincipal } from './domain/principal';

type PrincipalOf<R> = R extends { auth: 'token'; console: true | { role: 'admin' } }
  ? TokenPrincipal | SessionPrincipal
  : R extends { auth: 'token' }
    ? TokenPrincipal
    : R extends { auth: 'session' }
      ? SessionPrincipal
      : undefined;

export interface ApiRequest<R extends RouteDef> {
  principal: PrincipalOf<R>;
  query: Out<R extends { query: infer Q } ? Q : undefined>;
  body: Out<R extends { body: infer B } ? B : undefined>;
  params: Out<R extends { params: infer P } ? P : undefined>;
  event: APIGatewayProxyEvent;
}

/** A handler result that needs more than the route's status and a JSON body. */
export class Reply<B = unknown> {
  constructor(
    readonly body: B,
    readonly opts: { status?: number; cookies?: string[]; headers?: Record<string, string> } = {},
  ) {}
}

/**
 * What a route's handler may return: its response schema's type, or a Reply carrying it. A
 * handler returning another shape fails `tsc` (test/unit/handler-results.test.ts proves it).
 */
export type ResponseOf<R extends RouteDef> = z.output<R['response']>;
export type HandlerResult<R extends RouteDef> = ResponseOf<R> | Reply<ResponseOf<R>>;

/**
 * The one owner of the `{ data }` envelope: domain functions return bare values, and a handler
 * whose route answers `{ data }` puts its result there with this.
 */
export const data = <T>(value: T): { data: T } => ({ data: value });

/** A page from the domain (`items` and its paging fields) as the routes answer it: the items under `data`. */
export function page<P extends { items: unknown[] }>(p: P): { data: P['items'] } & Omit<P, 'items'> {
  const { items, ...rest } = p;
  return { data: items, ...rest } as { data: P['items'] } & Omit<P, 'items'>;
}

const JSON_HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...API_SECURITY_HEADERS };

export const json = (
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
  cookies: string[] = [],
): APIGatewayProxyResult => ({
  statusCode,
  headers: { ...JSON_HEADERS, ...headers },
  ...(cookies.length && { multiValueHeaders: { 'Set-Cookie': cookies } }),
  body: JSON.stringify(body),
});

export const errorResponse = (
  statusCode: number,
  message: string,
  headers?: Record<string, string>,
  detail: { code: ErrorCode; field?: string; allowed?: readonly string[]; existingId?: string } = { code: 'internal_error' },
) => json(statusCode, errorBody(message, detail.code, detail.field, detail.allowed, detail.existingId), headers);

export { header };

const routeName = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;

function queryObject(event: APIGatewayProxyEvent): Record<string, string> {
  const multi = event.multiValueQueryStringParameters ?? {};
  for (const [name, values] of Object.entries(multi)) {
    if ((values?.length ?? 0) > 1) throw new ValidationError(`${name} must be given at most once`, { field: name });
  }
  return (event.queryStringParameters ?? {}) as Record<string, string>;
}

/** Where a request came from, as the audit log records it: client address, user agent, request id. */
export const requestOf = (event: APIGatewayProxyEvent): AuditRequest => ({
  ip: clientAddress(event),
  user_agent: header(event, 'user-agent')?.slice(0, 256),
  request_id: requestIdOf(event),
});

function principalOf(event: APIGatewayProxyEvent, auth: RouteDef['auth']): TokenPrincipal | SessionPrincipal | undefined {
  if (auth === 'none') return undefined;
  const ctx = event.requestContext.authorizer ?? {};
  if (typeof ctx.tenantId !== 'string' || !ctx.tenantId) {
    // The authorizer always sets it; reaching here means the function is wired wrongly.
    throw new Error('authorizer context has no tenantId');
  }
  const tenant = { tenantId: ctx.tenantId, tenantSlug: String(ctx.tenantSlug ?? ''), request: requestOf(event) };
  if (auth === 'token') {
    refuseEnded(ctx, Number(event.requestContext.requestTimeEpoch) || Date.now());
    const tokenName = typeof ctx.tokenName === 'string' ? { tokenName: ctx.tokenName } : {};
    const creator =
      typeof ctx.creatorId === 'string' && ctx.creatorId ? { creator: { id: ctx.creatorId, email: String(ctx.creatorEmail ?? '') } } : {};
    return {
      kind: 'token',
      ...tenant,
      tokenId: String(ctx.tokenId ?? ''),
      ...tokenName,
      ...creator,
      scopes: String(ctx.scopes ?? '')
        .split(' ')
        .filter(Boolean),
      // The authorizer names the role the token acts with (its creator's, or an admin's for a
      // workspace token). A context cached before it did so is a token made when a personal
      // token's creator could only be an admin or a recruiter: the narrower of the two.
      role: roleFrom(ctx.actsAs) ?? (creator.creator ? 'recruiter' : 'admin'),
    };
  }
  return {
    kind: 'session',
    ...tenant,
    userId: String(ctx.userId),
    email: String(ctx.email),
    role: roleFrom(ctx.role) ?? 'interviewer',
    ...(ctx.mustChangePassword === 'true' && { mustChangePassword: true }),
    ...((ctx.twoFactor === 'verify' || ctx.twoFactor === 'enrol') && { twoFactor: ctx.twoFactor }),
  };
}

/**
 * A token past its expiry, or a rotated-out secret past its grace, is refused here on every
 * request (the authorizer puts both ends in the context), so either holds to the second although
 * API Gateway caches the authorizer's answer for up to 60 s.
 */
function refuseEnded(ctx: Record<string, unknown>, at: number) {
  const { secretEndsAt: rotated, expiresAt: expired } = ctx;
  if (typeof rotated === 'string' && at >= Date.parse(rotated))
    throw new UnauthorizedError(`this token was rotated; its previous secret stopped working at ${rotated}: use the new one`, {
      code: 'token_rotated',
    });
  if (typeof expired === 'string' && at >= Date.parse(expired))
    throw new UnauthorizedError(`this API token expired at ${expired}; ask a workspace user for a new one`, { code: 'token_expired' });
}

/** What a member is refused, from the line's summary (which a line with a role keeps in its bundle). */
const adminAction = (r: Route) => {
  const summary = r.summary || `call ${routeName(r)}`;
  return `${summary.charAt(0).toLowerCase()}${summary
    .slice(1)
    .replace(/[;(].*$/, '')
    .trim()}`;
};

/** A 403 unless the permission table lets the principal's role call the route served. */
function refuseRole(principal: TokenPrincipal | SessionPrincipal, served: Route, line: Route) {
  const { role } = principal;
  const allowed = ROUTE_LINES[routeName(served)] ?? [];
  if (allowed.includes(role)) return;
  if (allowed.length > 0 && allowed.every((r) => r === 'admin')) throw new ForbiddenError(`only workspace admins may ${adminAction(line)}`);
  const who = principal.kind === 'token' ? `this token acts as its creator, a ${role}, and a ${role}` : `a ${role}`;
  throw new ForbiddenError(`${who} may not ${adminAction(line)}`);
}

/** What a user on a temporary password is told by every route but the three open to them. */
const PASSWORD_CHANGE_REQUIRED = 'change your temporary password first (PUT /api/session/password)';
const TWO_FACTOR_REQUIRED = 'finish signing in first: enter your two-factor code, or set up two-factor sign-in';

/**
 * CSRF defence for cookie-authenticated writes: a browser names the requesting page in
 * Origin and Sec-Fetch-Site; anything from another site is refused. The console is served from
 * the API's own origin, so no other origin is ever allowed. Clients that send neither (curl,
 * servers) are judged by the cookie alone.
 */
function refuseCrossSite(event: APIGatewayProxyEvent) {
  const origin = header(event, 'origin');
  const sameOrigin = origin !== undefined && siteHosts(event).includes(hostOf(origin) ?? '');
  if (origin !== undefined && !sameOrigin) throw new ForbiddenError('cross-site request refused');
  if (!sameOrigin && header(event, 'sec-fetch-site') === 'cross-site') throw new ForbiddenError('cross-site request refused');
}

const hostOf = (origin: string) => {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
};

/** Middy's HTTP errors carry `statusCode` and `expose`; the JSON parser's need our wording. */
function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  const e = err as { statusCode?: number; expose?: boolean; message?: string; cause?: { package?: string } };
  if (e?.cause?.package === '@middy/http-json-body-parser') {
    return e.message === 'Unsupported Media Type'
      ? new UnsupportedMediaTypeError()
      : new ValidationError('request body is not valid JSON', { code: 'invalid_request' });
  }
  return undefined;
}

/** The request id of an answer: API Gateway's, which is also the logs' correlation id. */
const requestIdOf = (event: APIGatewayProxyEvent | undefined) => String(event?.requestContext?.requestId ?? '');

const errorBoundary = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  onError: async (request) => {
    const known = toAppError(request.error);
    request.response = known
      ? errorResponse(known.status, known.message, known.headers, known)
      : // The client can quote the id; the request's log line (below) carries the error under it.
        errorResponse(500, `internal error (request id ${requestIdOf(request.event)})`);
  },
});

/** The category of a refusal in the `request completed` line: never its message, which can echo input. */
const REASONS: Record<number, string> = {
  400: 'validation',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
};

/**
 * Outermost: the correlation id (= API Gateway's request id) and the tenant on every log line of
 * the request, X-Request-Id on every answer, and one `request completed` line and one
 * `ApiRequests` metric per request, whatever the outcome. Its `after` and `onError` run last,
 * so they see the answer the error boundary made.
 */
const requestLog = (
  servedBy: (event: APIGatewayProxyEvent) => Route,
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context> => {
  const started = new WeakMap<object, number>();
  const done = (request: middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>) => {
    const id = requestIdOf(request.event);
    const res = request.response;
    if (!res) return; // unhandled: middy rethrows, and the integration fails
    const route = routeName(servedBy(request.event));
    res.headers = { ...res.headers, 'X-Request-Id': id };
    const status = res.statusCode;
    const tenantId = request.event?.requestContext?.authorizer?.tenantId;
    const fields = {
      // Named again here, not only through the logger's keys: the local runtime runs requests
      // side by side on one logger, and this line must name its own request whatever else ran.
      correlation_id: id,
      ...(typeof tenantId === 'string' && tenantId && { tenant_id: tenantId }),
      route,
      status,
      duration_ms: Math.round(performance.now() - (started.get(request) ?? performance.now())),
    };
    if (status >= 500) {
      // Name, message and stack only: SDK errors carry items (PII) in their other fields.
      const { name, message, stack } = (request.error ?? {}) as Error;
      logger.error('request completed', { ...fields, error: { name, message, stack } });
    } else if (status >= 400) {
      const code = (request.error as { code?: unknown } | null)?.code;
      logger.info('request completed', { ...fields, reason: REASONS[status] ?? 'client_error', ...(typeof code === 'string' && { code }) });
    } else {
      logger.info('request completed', fields);
    }
    emitMetric('ApiRequests', 1, undefined, { route, status_class: `${Math.floor(status / 100)}xx` });
  };
  return {
    before: (request) => {
      started.set(request, performance.now());
      metrics.captureColdStartMetric(request.context?.functionName);
      logger.setCorrelationId(requestIdOf(request.event));
      const tenantId = request.event.requestContext?.authorizer?.tenantId;
      if (typeof tenantId === 'string' && tenantId) logger.appendKeys({ tenant_id: tenantId });
    },
    after: done,
    onError: done,
  };
};

/**
 * Build a Lambda handler for a route from its route table line. A route marked `idempotent`
 * passes lib/idempotency.ts in `opts`: imported by its handler module, Powertools Idempotency
 * stays out of every other function's bundle.
 */
export function apiHandler<R extends RouteDef>(
  r: R,
  fn: (req: ApiRequest<R>) => Promise<HandlerResult<R>>,
  opts: { idempotency?: { idempotencyKeyOf: (event: APIGatewayProxyEvent) => string | undefined; idempotent: typeof Idempotent } } = {},
) {
  const idem = 'idempotent' in r && r.idempotent ? opts.idempotency : undefined;
  if ('idempotent' in r && r.idempotent && !idem)
    throw new Error(`${r.method} ${r.path} is idempotent but its handler passes no idempotency module`);
  // A line marked `console` also serves its session twin: the event's resource says which one
  // API Gateway (or the local gateway) matched, and so which authorizer ran.
  const twin = 'console' in r && r.console ? consoleTwin(r) : undefined;
  const servedBy = (event: APIGatewayProxyEvent): Route => (twin && event?.resource === twin.path ? twin : r);
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    // resetKeys: the correlation id and tenant of one request never reach the next one's lines.
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(requestLog(servedBy))
    .use(errorBoundary());
  if ('body' in r) chain.use(httpJsonBodyParser());
  // The work runs within the function's time left (lib/time-budget.ts): it stops with a 429
  // instead of writing on after middy's early timeout has answered.
  const remainingOf = (context: Context | undefined) =>
    typeof context?.getRemainingTimeInMillis === 'function' ? () => context.getRemainingTimeInMillis() : undefined;
  return chain.handler((event, context) => withTimeBudget(remainingOf(context), () => serve(event, context)));

  async function serve(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
    const served = servedBy(event);
    // A public `cors` line takes posts from any site by design: no cookie, nothing to forge. Nor
    // do the careers pages' own forms (the withdraw confirmation, the CV step): a signed token is
    // their one credential, and their pages are served with no-referrer, so a browser posts them
    // with `Origin: null`.
    if (served.auth !== 'token' && served.method !== 'GET' && !served.cors && !served.formToken) refuseCrossSite(event);
    const principal = principalOf(event, served.auth);
    // Here, not in each handler: a route is closed to a temporary password unless its line opens it.
    const pending = (principal as SessionPrincipal | undefined)?.twoFactor;
    // The session authorizer already refused any other route; this holds if a policy were ever too wide.
    if (pending && !served.twoFactorStep?.includes(pending)) throw new ForbiddenError(TWO_FACTOR_REQUIRED, { code: 'two_factor_required' });
    if ((principal as SessionPrincipal | undefined)?.mustChangePassword && !served.beforePasswordChange)
      throw new ForbiddenError(PASSWORD_CHANGE_REQUIRED, { code: 'password_change_required' });
    // The permission table decides, on the route served: a console twin may need a role its
    // token route does not. A token is judged by the role it acts with (its creator's).
    if (principal) refuseRole(principal, served, r);
    const params = 'params' in r ? parse(r.params, event.pathParameters ?? {}, 'path') : undefined;
    const query = 'query' in r ? parse(r.query, queryObject(event), 'query') : undefined;
    const body = 'body' in r ? parse(r.body, event.body, 'body') : undefined;
    const respond = async () => {
      const result = await fn({ principal, query, body, params, event } as ApiRequest<R>);
      if (!(result instanceof Reply)) return json(r.status, result);
      // Not Modified carries no body (an If-None-Match that names the current ETag).
      if (result.opts.status === 304) return { ...json(304, null, result.opts.headers), body: '' };
      return json(result.opts.status ?? r.status, result.body, result.opts.headers, result.opts.cookies);
    };
    // Checked after the request is valid: a malformed request never claims its key.
    const key = idem?.idempotencyKeyOf(event);
    if (!idem || key === undefined) return respond();
    const tenantId = (principal as TokenPrincipal).tenantId;
    return idem.idempotent({ tenantId, route: routeName(served), key, event, context }, respond);
  }
}
