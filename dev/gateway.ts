/**
 * Local stand-in for API Gateway (REST, Lambda proxy). It takes its routes from the route
 * table, runs the same authorizer, evaluates the returned policy and caches it per token as
 * API Gateway does, answers its own refusals with the same `{ error }` bodies, then calls the
 * same handler modules with the same event shape.
 *
 * Import this module only after TABLE_NAME and DYNAMODB_ENDPOINT are set: the handlers read
 * their configuration once, at import.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult, Context } from 'aws-lambda';
import { CORS_HEADERS } from '../lib/applications/cors';
import { isAllowed } from '../lib/auth/policy';
import { errorBody, type ErrorCode } from '../lib/errors';
import { GATEWAY_ERRORS } from '../lib/gateway-responses';
import { RATE_LIMITED, type RateLimits } from '../lib/rate-limits';
import { matchPath, routes, type Route } from '../lib/routes';
import { API_SECURITY_HEADERS } from '../lib/security-headers';
import { consoleFile, DEFAULT_CONSOLE_DIR } from './console-files';
import { lambdaContext, methodArn, proxyEvent, requestAuthorizerEvent, tokenAuthorizerEvent } from './events';
import { init, invocation } from './invocation';
import { createRateLimiter } from './rate-limiter';

type ProxyHandler = (event: unknown, context: Context) => Promise<APIGatewayProxyResult>;
type Authorizer = (event: unknown, context: Context) => Promise<APIGatewayAuthorizerResult>;

export interface GatewayOptions {
  /** Authorizer result cache TTL, as on the deployed API (seconds). 0 turns caching off. */
  authorizerCacheTtlSeconds?: number;
  /** One line per request. */
  log?: (line: string) => void;
  /** The built console served outside /api (default console/dist). */
  consoleDir?: string;
  /** The files bucket's origin (the local S3's), which the console's CSP lets the page upload to and show images from. */
  filesOrigin?: string;
  /**
   * Per-member rate limits on cookie (session) routes, as WAF enforces them per session deployed
   * (lib/rate-limits.ts SESSION_RATE_LIMITS). Off unless given, like `rateLimits`.
   */
  sessionRateLimits?: RateLimits;
  /**
   * Per-token rate limits on token routes, as the deployed usage plan enforces them. Off unless
   * given: `npm start` passes the deployed numbers (lib/rate-limits.ts); tests and the bench opt in.
   */
  rateLimits?: RateLimits;
  /**
   * The clock the authorizer cache expires by, and each request's time (requestTimeEpoch, which
   * token expiry is judged by); tests move it to prove both bounds without waiting.
   */
  now?: () => number;
}

/** The deployed stack's cache TTL; revoked tokens stop working within this time. */
export const AUTHORIZER_CACHE_TTL_SECONDS = 60;
const MAX_BODY_BYTES = 10 * 1024 * 1024; // API Gateway's payload limit

/** The path and query of an origin-form request target (`/path?query`); undefined for any other form. */
export function parseTarget(raw: string | undefined): { path: string; search: URLSearchParams } | undefined {
  if (!raw?.startsWith('/')) return undefined; // `*`, absolute-form, authority-form
  try {
    // Prefixing keeps `//x` and `/\x` a path instead of a host; dot segments are resolved.
    const url = new URL(`http://local${raw}`);
    return url.host === 'local' ? { path: url.pathname, search: url.searchParams } : undefined;
  } catch {
    return undefined;
  }
}

const jsonAnswer = (statusCode: number, error: string, code: ErrorCode): APIGatewayProxyResult => ({
  statusCode,
  headers: { 'Content-Type': 'application/json', ...API_SECURITY_HEADERS },
  body: JSON.stringify(errorBody(error, code)),
});

// The careers pages are functions too (lib/api/careers.ts), as CloudFront routes them.
const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/') || path.startsWith('/careers/');

const loadHandler = async <T>(name: string): Promise<T> => (await init(() => import(`../functions/${name}`))).handler as T;

export interface LocalGateway {
  server: Server;
  listen(port: number, host?: string): Promise<string>;
  close(): Promise<void>;
  /** Forget cached authorizer results (what a redeploy does). */
  flushAuthorizerCache(): void;
}

export function createGateway(opts: GatewayOptions = {}): LocalGateway {
  const ttlMs = (opts.authorizerCacheTtlSeconds ?? AUTHORIZER_CACHE_TTL_SECONDS) * 1000;
  const cache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();
  const now = opts.now ?? Date.now;
  const handlers = new Map<string, Promise<ProxyHandler>>();
  const handlerFor = (name: string) => {
    if (!handlers.has(name)) handlers.set(name, loadHandler<ProxyHandler>(name));
    return handlers.get(name)!;
  };
  const authorizer = loadHandler<Authorizer>('authorizer');
  const limiter = opts.rateLimits ? createRateLimiter(opts.rateLimits) : undefined;
  const sessionLimiter = opts.sessionRateLimits ? createRateLimiter(opts.sessionRateLimits) : undefined;
  // Session results are never cached (as deployed), so logout and expiry act at once.
  const sessionAuthorizer = loadHandler<Authorizer>('session-authorizer');

  async function authorize(authorization: string, method: string, path: string) {
    const hit = cache.get(authorization);
    if (hit && hit.expires > now()) return hit.result;
    const context = lambdaContext('authorizer');
    const fn = await authorizer;
    const result = await invocation(context.awsRequestId, () => fn(tokenAuthorizerEvent(authorization, method, path), context));
    if (ttlMs > 0) cache.set(authorization, { result, expires: now() + ttlMs });
    return result;
  }

  async function invokeSessionAuthorizer(event: unknown) {
    const context = lambdaContext('session-authorizer');
    const fn = await sessionAuthorizer;
    return invocation(context.awsRequestId, () => fn(event, context));
  }

  async function respond(
    req: IncomingMessage,
    target: { path: string; search: URLSearchParams },
    body: string | null,
    requestId: string,
  ): Promise<APIGatewayProxyResult> {
    const method = req.method ?? 'GET';
    const { path } = target;
    const gatewayError = (e: { status?: number; error: string; code: ErrorCode }, status = e.status ?? 500) =>
      jsonAnswer(status, e.error, e.code);

    let route: Route | undefined;
    let pathParameters: Record<string, string> = {};
    for (const r of routes as readonly Route[]) {
      const params = r.method === method ? matchPath(r.path, path) : undefined;
      if (params) {
        route = r;
        pathParameters = params;
        break;
      }
    }
    // The deployed API's mock preflight of a `cors` line (infra/constructs/route-api.ts).
    if (!route && method === 'OPTIONS' && (routes as readonly Route[]).some((r) => r.cors && matchPath(r.path, path)))
      return { statusCode: 204, headers: { ...CORS_HEADERS }, body: '' };
    if (!route) return gatewayError(GATEWAY_ERRORS.notFound);

    const event = proxyEvent({
      method,
      path,
      resource: route.path,
      pathParameters,
      headers: req.headers,
      search: target.search,
      body,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      requestId,
      // API Gateway's request time: the boundary refuses a token that expired before it.
      requestTimeEpoch: now(),
    });
    const arn = methodArn(method, path);
    if (route.auth !== 'none') {
      // The identity source: without it API Gateway answers 401 and never calls the authorizer.
      const identity = route.auth === 'token' ? req.headers.authorization : req.headers.cookie;
      if (!identity) return gatewayError(GATEWAY_ERRORS.unauthorized);
      let result: APIGatewayAuthorizerResult;
      try {
        result =
          route.auth === 'token'
            ? await authorize(identity, method, path)
            : await invokeSessionAuthorizer(requestAuthorizerEvent(event, arn));
      } catch (err) {
        return (err as Error).message === 'Unauthorized'
          ? gatewayError(GATEWAY_ERRORS.unauthorized)
          : gatewayError(GATEWAY_ERRORS.authorizerFailure);
      }
      if (!isAllowed(result.policyDocument, arn)) return gatewayError(GATEWAY_ERRORS.accessDenied);
      event.requestContext.authorizer = { ...result.context, principalId: result.principalId };
    }
    // The usage plan's check comes after the authorizer, per API key: one key per token; a
    // session's, per member (the session authorizer's principal is the user).
    const principal = String(event.requestContext.authorizer?.principalId);
    const rate = route.auth === 'token' ? limiter?.take(principal) : route.auth === 'session' ? sessionLimiter?.take(principal) : undefined;
    if (rate && !rate.allowed) {
      const { status, error, code } = rate.reason === 'quota' ? RATE_LIMITED.quota : RATE_LIMITED.throttled;
      return {
        statusCode: status,
        headers: {
          'Content-Type': 'application/json',
          ...API_SECURITY_HEADERS,
          'Retry-After': String(rate.retryAfterSeconds),
          ...rate.headers,
        },
        body: JSON.stringify({ error, code }),
      };
    }

    try {
      const handler = await handlerFor(route.handler);
      // The function's own timeout, as deployed (middy ends a handler that runs out of it).
      const context = lambdaContext(route.handler, (route.timeoutSeconds ?? 10) * 1000);
      const res = await invocation(context.awsRequestId, () => handler(event, context));
      return rate ? { ...res, headers: { ...res.headers, ...rate.headers } } : res;
    } catch {
      // What API Gateway answers when the integration itself fails.
      return gatewayError({ error: 'Internal server error', code: 'internal_error' }, 502);
    }
  }

  const consoleDir = opts.consoleDir ?? DEFAULT_CONSOLE_DIR;

  /** Everything a request can get; never throws. */
  async function answer(req: IncomingMessage, target: ReturnType<typeof parseTarget>, raw: Buffer | 'too large', requestId: string) {
    if (!target) return jsonAnswer(400, 'the request target must be a path such as /api/v1/pipeline', 'invalid_request');
    if (raw === 'too large') {
      const { status, error, code } = GATEWAY_ERRORS.requestTooLarge;
      return jsonAnswer(status, error, code);
    }
    const method = req.method ?? 'GET';
    if (!isApiPath(target.path) && (method === 'GET' || method === 'HEAD')) {
      const file = await consoleFile(consoleDir, target.path, opts.filesOrigin);
      return { statusCode: file.status, headers: file.headers, body: file.body.toString('base64'), isBase64Encoded: true };
    }
    return respond(req, target, raw.length ? raw.toString('utf8') : null, requestId);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    // One id per request, as API Gateway's $context.requestId: the handler's event and logs carry
    // it, and every answer names it in X-Request-Id, the gateway's own refusals included.
    const requestId = randomUUID();
    // Parsed once, here: a target that is not a path is answered, never thrown.
    const target = parseTarget(req.url);
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', async () => {
      const result = await answer(req, target, tooLarge ? 'too large' : Buffer.concat(chunks), requestId).catch((err: Error) => {
        // Never leave a client without an answer; API Gateway would say 500 too.
        console.error(`local gateway: ${err.stack ?? err.message}`);
        return jsonAnswer(500, 'Internal server error', 'internal_error');
      });
      try {
        const headers: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
        for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) headers[k] = v.map(String);
        if (!Object.keys(headers).some((k) => k.toLowerCase() === 'x-request-id')) headers['X-Request-Id'] = requestId;
        const payload = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '');
        res.writeHead(result.statusCode, { ...headers, 'Content-Length': payload.length });
        res.end(req.method === 'HEAD' ? undefined : payload);
      } catch (err) {
        // A handler's malformed header must not take the process down.
        console.error(`local gateway: ${(err as Error).message}`);
        if (!res.headersSent)
          res
            .writeHead(502, { 'Content-Type': 'application/json', 'X-Request-Id': requestId })
            .end(JSON.stringify(errorBody('Bad gateway', 'internal_error')));
        else res.destroy();
      }
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      opts.log?.(`${req.method} ${target?.path ?? '(not a path)'} ${result.statusCode} ${ms.toFixed(1)}ms`);
    });
  });
  // An idle keep-alive connection outlives any client's own idle timeout (Node's default is 5 s):
  // a server that closes it first can do so just as the client sends its next request on it, and
  // that client sees ECONNRESET (the browser tests' request client did, between two steps).
  // close() below still ends every connection at once.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Request lines and headers Node refuses before any handler runs: answer with `{ error }`.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const [status, text] = err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request'];
    if (err.code !== 'ECONNRESET' && socket.writable) {
      const body = JSON.stringify(
        status === 431
          ? errorBody('request line or headers too large', 'headers_too_large')
          : errorBody('malformed HTTP request', 'invalid_request'),
      );
      socket.end(
        `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nX-Request-Id: ${randomUUID()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    } else socket.destroy();
  });

  return {
    server,
    flushAuthorizerCache: () => cache.clear(),
    listen: (port, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const { port: actual } = server.address() as { port: number };
          resolve(`http://${host}:${actual}`);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
