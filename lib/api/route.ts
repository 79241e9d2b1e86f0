/**
 * What a route line is, and what every route module (lib/api/<resource>.ts) shares: the line's
 * type, the path prefixes, the console twin a line derives, path matching and scope checks.
 * Nothing here knows the other routes: a function bundles its own line and its resource's schemas.
 */
import type * as z from 'zod/mini';
import type { Scope } from '../model';

// In its own module so that the entity declarations read it without importing the API.
import { DOCS } from '../docs';

export { DOCS };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * `token`: Bearer API token (TOKEN authorizer). `session`: cookie session (REQUEST authorizer).
 * `none`: public, only for logging in.
 */
export type AuthKind = 'token' | 'session' | 'none';

export interface Route {
  method: HttpMethod;
  /** API Gateway resource path; `{name}` marks a path parameter. */
  path: string;
  /** Module under functions/ that exports `handler`. */
  handler: string;
  auth: AuthKind;
  /** Scope a token needs (token routes only). `*` always satisfies it. */
  scope?: Exclude<Scope, '*'>;
  /** Workspace role a session needs (session routes only); without it any member may call. */
  role?: 'admin';
  /**
   * Session routes only: open to a user who still has a temporary password (`must_change_password`):
   * reading the session, the password change and signing out. Every other session route answers
   * 403 `password_change_required` to them (lib/http.ts), so a new route is closed unless it says so.
   */
  beforePasswordChange?: true;
  /**
   * Session routes only: open to a half-signed-in session, whose two-factor step is still due
   * (`verify`: a code; `enrol`: enrolling, required by the workspace). The session authorizer's
   * policy for such a session allows these lines alone, so a new route is closed unless it says so.
   */
  twoFactorStep?: readonly ('verify' | 'enrol')[];
  /**
   * `none` routes only: public to browser code on any site. The answers carry CORS headers for any
   * origin, and a post from another site is not refused (no cookie is read, so none can be forged).
   */
  cors?: true;
  /**
   * The function reads the application form's key (FORM_TOKEN_SECRET, lib/domain/form-token.ts):
   * `issue` hands tokens out (the public job reads); `check` takes applications, and with them
   * the application limits' counters (the only items it may write) counted by client address;
   * `withdraw` checks an applicant's withdraw link (lib/domain/withdraw-token.ts), signed with it too.
   */
  formToken?: 'issue' | 'check' | 'withdraw';
  /** Table access the function is granted. */
  access: 'read' | 'write' | 'none';
  /**
   * The function also writes its callers' lease items (lib/store/leases.ts), and nothing else of
   * the table beyond its `access`: a cap on a caller's costly requests in flight.
   */
  leases?: boolean;
  /**
   * The OpenAPI summary; `false` in Lambda bundles (DOCS). A line with a `role` (or a console twin
   * for admins) keeps it there: the 403 to a member quotes it (lib/http.ts).
   */
  summary: string | false;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  /** Statuses this route answers beyond those implied by its auth and schemas (OpenAPI; behind DOCS). */
  errors?: Readonly<Record<number, string>>;
  /** Success status and body schema. */
  status: number;
  /** Other success statuses, answering the same body schema (OpenAPI; behind DOCS). */
  alsoStatus?: Readonly<Record<number, string>>;
  response: z.ZodMiniType;
  /**
   * The route answers HTML pages (the careers site), its success and its 404 alike: `response`
   * is the page as one string, and the not-found page replaces the JSON error body.
   */
  html?: true;
  /**
   * The files bucket access the function is granted (infra/constructs/files-bucket.ts grantFiles):
   * `read` (HeadObject, reads, download links), `write` (presigned POSTs, the move to the file
   * key), `delete` (every version of one key). Without it the function cannot reach the bucket.
   */
  files?: readonly ('read' | 'write' | 'delete')[];
  /** The function sends to the webhook delivery queue (resend, replay): it gets the queue's URL and send rights. */
  queue?: boolean;
  /** The function sends to the import queue (bulk import): it gets that queue's URL and send rights. */
  importQueue?: boolean;
  /**
   * The body is a file of one of these media types, not JSON: the handler reads it raw (no `body`
   * schema), and the OpenAPI document names the types.
   */
  upload?: readonly string[];
  /**
   * Accepts an Idempotency-Key header (lib/idempotency.ts): a retry with the same key and request
   * gets the first answer again instead of a second write.
   */
  idempotent?: boolean;
  /** Answers carry an ETag (OpenAPI). */
  etag?: boolean;
  /** Accepts an optional If-Match with an ETag this API sent: another version is a 412 (OpenAPI). */
  ifMatch?: boolean;
  /** Function timeout when the default 10 s is too short; below API Gateway's 29 s integration limit. */
  timeoutSeconds?: number;
  /**
   * Token routes only: the console reaches the same handler with the cookie session, at the same
   * path under `/api` instead of `/api/v1` (its twin in `routes`). Any member may call the twin;
   * the CSRF rule applies to its writes. See docs/architecture.md, "The console's routes".
   * `{ role: 'admin' }`: the twin is for workspace admins only (a token needs only the scope).
   */
  console?: true | { role: 'admin' };
  /** On a console twin: the `/api/v1` path of the token route it mirrors. */
  twinOf?: string;
}

export const API_PREFIX = '/api/v1';

export const CONSOLE_PREFIX = '/api';

// Shared by the idempotent writes' error sentences. Written `DOCS ? … : ''`, not `DOCS && …` like
// a line's: esbuild decides what a bundle keeps before it inlines DOCS, and keeps these constants,
// but folds each to '' there.
const IN_FLIGHT = DOCS ? 'a request with this Idempotency-Key is still in progress (code idempotency_conflict, Retry-After 1)' : '';
export const IDEM_CONFLICT = DOCS ? `Too many concurrent writes; try again; or ${IN_FLIGHT}` : '';
export const IDEM_MISMATCH = DOCS ? 'This Idempotency-Key was used with a different request (code idempotency_mismatch)' : '';

/** The session twin of a token route marked `console`: same handler, schemas and answers. */
export function consoleTwin(r: Route): Route {
  const { scope: _scope, console: twin, ...rest } = r;
  return {
    ...rest,
    ...(typeof twin === 'object' && { role: twin.role }),
    path: `${CONSOLE_PREFIX}${r.path.slice(API_PREFIX.length)}`,
    auth: 'session',
    twinOf: r.path,
  };
}

/** Turn `/a/{id}/b` into a matcher that returns the path parameters. */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i]!;
    const val = p[i]!;
    if (seg.startsWith('{') && seg.endsWith('}')) {
      if (!val) return undefined;
      try {
        params[seg.slice(1, -1)] = decodeURIComponent(val);
      } catch {
        return undefined; // a malformed escape matches no route
      }
    } else if (seg !== val) return undefined;
  }
  return params;
}

/** Scopes a token must hold for a route, `*` included. */
export function allows(scopes: readonly string[], route: Pick<Route, 'scope'>): boolean {
  return scopes.includes('*') || (route.scope !== undefined && scopes.includes(route.scope));
}
