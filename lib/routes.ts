/**
 * The route table: the single source for the CDK stack, the local gateway, the authorizer's
 * scope policy and the OpenAPI document. Adding a route is one line here plus a thin handler
 * in functions/<handler>.ts.
 */
import * as z from 'zod/mini';
import type { Scope } from './model';
import * as s from './schemas';

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
  /** Table access the function is granted. */
  access: 'read' | 'write' | 'none';
  /**
   * The function also writes its callers' lease items (lib/store/leases.ts), and nothing else of
   * the table beyond its `access`: a cap on a caller's costly requests in flight.
   */
  leases?: boolean;
  summary: string;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  /** Statuses this route answers beyond those implied by its auth and schemas (OpenAPI). */
  errors?: Readonly<Record<number, string>>;
  /** Success status and body schema. */
  status: number;
  /** Other success statuses, answering the same body schema (OpenAPI). */
  alsoStatus?: Readonly<Record<number, string>>;
  response: z.ZodMiniType;
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

// Shared by the idempotent writes: a string literal is not deduplicated by the minifier, and every
// function bundles the whole table.
const IN_FLIGHT = 'a request with this Idempotency-Key is still in progress (code idempotency_conflict, Retry-After 1)';
const IDEM_CONFLICT = `Too many concurrent writes; try again; or ${IN_FLIGHT}`;
const IDEM_MISMATCH = 'This Idempotency-Key was used with a different request (code idempotency_mismatch)';

const lines = [
  {
    method: 'GET',
    path: '/api/v1/candidates',
    console: true,
    handler: 'list-candidates',
    auth: 'token',
    scope: 'candidates:read',
    access: 'read',
    leases: true,
    summary: 'List candidates, newest first; with updated_after, those changed since then, oldest change first',
    query: s.ListCandidatesQuery,
    status: 200,
    response: s.CandidateList,
  },
  {
    method: 'POST',
    path: '/api/v1/candidates',
    console: true,
    handler: 'create-candidate',
    idempotent: true,
    auth: 'token',
    scope: 'candidates:write',
    access: 'write',
    summary: 'Create a candidate',
    body: s.CreateCandidateBody,
    errors: { 409: IDEM_CONFLICT, 422: IDEM_MISMATCH },
    status: 201,
    response: s.dataOf(s.CreatedCandidate),
  },
  {
    method: 'GET',
    path: '/api/v1/candidates/{id}',
    console: true,
    handler: 'get-candidate',
    auth: 'token',
    scope: 'candidates:read',
    access: 'read',
    summary: 'One candidate with its stage history (oldest stay first)',
    params: s.IdParam,
    status: 200,
    response: s.dataOf(s.CandidateDetail),
  },
  {
    method: 'PATCH',
    path: '/api/v1/candidates/{id}',
    console: true,
    handler: 'update-candidate',
    idempotent: true,
    auth: 'token',
    scope: 'candidates:write',
    access: 'write',
    summary: "Change a candidate's name, email, phone, resume_url or req_id (stage moves stay on POST /pipeline)",
    params: s.IdParam,
    body: s.UpdateCandidateBody,
    errors: { 409: IDEM_CONFLICT, 422: IDEM_MISMATCH },
    status: 200,
    response: s.dataOf(s.Candidate),
  },
  {
    method: 'POST',
    path: '/api/v1/candidates/{id}/erase',
    // In the console, only admins erase.
    console: { role: 'admin' },
    handler: 'erase-candidate',
    auth: 'token',
    scope: 'candidates:erase',
    access: 'write',
    summary: "Erase a candidate's personal data everywhere; answers a receipt",
    params: s.IdParam,
    status: 200,
    response: s.dataOf(s.ErasureReceipt),
    timeoutSeconds: 28,
  },
  {
    method: 'POST',
    path: '/api/v1/candidates/imports',
    console: true,
    handler: 'create-import',
    idempotent: true,
    importQueue: true,
    auth: 'token',
    scope: 'candidates:write',
    access: 'write',
    summary: 'Import candidates from a CSV or NDJSON file',
    query: s.ImportQuery,
    upload: ['text/csv', 'application/x-ndjson'],
    errors: { 409: IDEM_CONFLICT, 413: 'File over 5 MB', 415: 'Not text/csv or application/x-ndjson in UTF-8', 422: IDEM_MISMATCH },
    status: 202,
    alsoStatus: { 200: 'A dry run, or the same file imported in the last 7 days: that job' },
    response: s.dataOf(s.ImportAnswer),
    timeoutSeconds: 28,
  },
  {
    method: 'GET',
    path: '/api/v1/candidates/imports/{id}',
    console: true,
    handler: 'get-import',
    auth: 'token',
    scope: 'candidates:read',
    access: 'read',
    summary: 'An import job and its progress',
    params: s.IdParam,
    status: 200,
    response: s.dataOf(s.ImportJob),
  },
  {
    method: 'GET',
    path: '/api/v1/candidates/imports/{id}/errors',
    console: true,
    handler: 'list-import-errors',
    auth: 'token',
    scope: 'candidates:read',
    access: 'read',
    summary: "An import's refused rows, in row order",
    params: s.IdParam,
    query: s.ImportErrorsQuery,
    status: 200,
    response: s.ImportErrorPage,
  },
  {
    method: 'GET',
    path: '/api/v1/requisitions',
    console: true,
    handler: 'list-requisitions',
    auth: 'token',
    scope: 'requisitions:read',
    access: 'read',
    summary: 'List requisitions with candidate counts, newest first',
    query: s.ListRequisitionsQuery,
    status: 200,
    response: s.RequisitionList,
  },
  {
    method: 'POST',
    path: '/api/v1/requisitions',
    console: true,
    handler: 'create-requisition',
    idempotent: true,
    auth: 'token',
    scope: 'requisitions:write',
    access: 'write',
    summary: 'Create a requisition (open unless status is draft)',
    body: s.CreateRequisitionBody,
    errors: { 409: IDEM_CONFLICT, 422: IDEM_MISMATCH },
    status: 201,
    response: s.dataOf(s.RequisitionFull),
  },
  {
    method: 'GET',
    path: '/api/v1/requisitions/{id}',
    console: true,
    handler: 'get-requisition',
    auth: 'token',
    scope: 'requisitions:read',
    access: 'read',
    etag: true,
    summary: 'One requisition with its status history, oldest first',
    params: s.IdParam,
    status: 200,
    response: s.dataOf(s.RequisitionDetail),
  },
  {
    method: 'PATCH',
    path: '/api/v1/requisitions/{id}',
    console: true,
    handler: 'update-requisition',
    idempotent: true,
    ifMatch: true,
    etag: true,
    auth: 'token',
    scope: 'requisitions:write',
    access: 'write',
    summary: "Change a requisition's fields (not its status)",
    params: s.IdParam,
    body: s.UpdateRequisitionBody,
    errors: {
      409: `headcount below hires (code headcount_below_hires); or ${IDEM_CONFLICT}`,
      412: 'Stale If-Match (code stale_requisition)',
      422: IDEM_MISMATCH,
    },
    status: 200,
    response: s.dataOf(s.RequisitionFull),
  },
  {
    method: 'POST',
    path: '/api/v1/requisitions/{id}/status',
    console: true,
    handler: 'change-requisition-status',
    idempotent: true,
    etag: true,
    auth: 'token',
    scope: 'requisitions:write',
    access: 'write',
    summary: "Change a requisition's status",
    params: s.IdParam,
    body: s.ChangeRequisitionStatusBody,
    errors: {
      409: `Refused by the matrix (code invalid_transition, with allowed); or not in from_status (code stale_status); or ${IDEM_CONFLICT}`,
      422: IDEM_MISMATCH,
    },
    status: 200,
    response: s.dataOf(s.RequisitionFull),
  },
  {
    method: 'GET',
    path: '/api/v1/pipeline',
    handler: 'get-pipeline',
    auth: 'token',
    scope: 'pipeline:read',
    access: 'read',
    summary: 'Stage counts and stuck candidates',
    query: s.EmptyQuery,
    status: 200,
    response: s.dataOf(s.PipelineSummary),
  },
  {
    method: 'POST',
    path: '/api/v1/pipeline',
    console: true,
    handler: 'change-stage',
    idempotent: true,
    auth: 'token',
    scope: 'pipeline:write',
    access: 'write',
    summary: 'Move a candidate to another stage',
    body: s.ChangeStageBody,
    errors: {
      409: 'The candidate is not in from_stage (the message names its current stage), or is being moved concurrently; try again; or a request with this Idempotency-Key is still in progress (code idempotency_conflict, Retry-After 1)',
      422: IDEM_MISMATCH,
    },
    status: 200,
    response: s.dataOf(s.StageChange),
  },
  {
    method: 'GET',
    path: '/api/v1/openapi.json',
    handler: 'openapi',
    auth: 'none',
    access: 'none',
    summary: 'This OpenAPI document',
    status: 200,
    response: z.looseObject({ openapi: z.string() }),
  },
  {
    method: 'POST',
    path: '/api/session',
    handler: 'login',
    auth: 'none',
    access: 'write',
    summary: 'Log in; sets the session cookie',
    body: s.LoginBody,
    errors: {
      401: 'Wrong email or password (one message for both)',
      403: 'Cross-site request refused',
      429: 'Too many failed logins for this account; see Retry-After',
    },
    status: 200,
    response: s.dataOf(s.SessionInfo),
  },
  {
    method: 'GET',
    path: '/api/session',
    handler: 'get-session',
    auth: 'session',
    beforePasswordChange: true,
    access: 'read',
    summary: 'The signed-in user and workspace',
    status: 200,
    response: s.dataOf(s.SessionInfo),
  },
  {
    method: 'DELETE',
    path: '/api/session',
    handler: 'logout',
    auth: 'session',
    beforePasswordChange: true,
    access: 'write',
    summary: 'Log out; the session stops working at once',
    status: 200,
    response: s.Success,
  },
  {
    method: 'POST',
    path: '/api/tokens',
    handler: 'create-token',
    auth: 'session',
    access: 'write',
    summary: 'Create an API token; the token is shown only here',
    body: s.CreateTokenBody,
    errors: {
      403: "A scope beyond the caller's role (field scopes; a member may not grant candidates:erase or *), or a cross-site request",
    },
    status: 201,
    response: s.dataOf(s.CreatedToken),
  },
  {
    method: 'GET',
    path: '/api/tokens',
    handler: 'list-tokens',
    auth: 'session',
    access: 'read',
    summary: "List the workspace's API tokens, without secrets",
    status: 200,
    response: s.dataOf(z.array(s.TokenListing)),
  },
  {
    method: 'DELETE',
    path: '/api/tokens/{id}',
    handler: 'revoke-token',
    auth: 'session',
    access: 'write',
    summary: 'Revoke an API token',
    params: s.IdParam,
    errors: { 403: 'A member revoking a token someone else made, or a workspace token; or a cross-site request' },
    status: 200,
    response: s.Success,
  },
  {
    method: 'GET',
    path: '/api/webhooks',
    handler: 'list-webhooks',
    auth: 'session',
    access: 'read',
    summary: "List the workspace's webhook endpoints (no secrets), optionally only those of one status",
    query: s.ListWebhooksQuery,
    status: 200,
    response: s.WebhookList,
  },
  {
    method: 'POST',
    path: '/api/webhooks',
    handler: 'create-webhook',
    auth: 'session',
    role: 'admin',
    access: 'write',
    summary: 'Create a webhook endpoint; the secret is shown only here',
    body: s.CreateWebhookBody,
    errors: { 409: 'The workspace already has 20 active endpoints' },
    status: 201,
    response: s.CreatedWebhook,
  },
  {
    method: 'GET',
    path: '/api/webhooks/{id}',
    handler: 'get-webhook',
    auth: 'session',
    access: 'read',
    summary: 'An endpoint and its last 10 delivery attempts, newest first',
    params: s.IdParam,
    status: 200,
    response: s.WebhookDetail,
  },
  {
    method: 'PATCH',
    path: '/api/webhooks/{id}',
    handler: 'update-webhook',
    auth: 'session',
    role: 'admin',
    access: 'write',
    summary: 'Change an endpoint; its url, events (replaces the subscription), active or description',
    params: s.IdParam,
    body: s.UpdateWebhookBody,
    errors: { 409: 'Reactivating would exceed 20 active endpoints' },
    status: 200,
    response: s.UpdatedWebhook,
  },
  {
    method: 'DELETE',
    path: '/api/webhooks/{id}',
    handler: 'delete-webhook',
    auth: 'session',
    role: 'admin',
    access: 'write',
    summary: 'Delete an endpoint; a soft delete: active becomes false and status deleted, and pending deliveries are dropped',
    params: s.IdParam,
    status: 200,
    response: s.Success,
  },
  {
    method: 'POST',
    path: '/api/webhooks/{id}/test',
    handler: 'test-webhook',
    auth: 'session',
    role: 'admin',
    access: 'write',
    summary: 'Send a signed webhook.test event now and record the delivery',
    params: s.IdParam,
    errors: { 409: 'The endpoint is deleted' },
    status: 200,
    response: s.WebhookTestResult,
    timeoutSeconds: 20,
  },
  {
    method: 'GET',
    path: '/api/webhooks/{id}/deliveries',
    handler: 'list-webhook-deliveries',
    auth: 'session',
    access: 'read',
    summary: 'Delivery attempts, newest first, with an opaque cursor; filter by status and event type',
    params: s.IdParam,
    query: s.ListDeliveriesQuery,
    status: 200,
    response: s.DeliveryPage,
  },
  {
    method: 'POST',
    path: '/api/webhooks/{id}/resend',
    handler: 'resend-webhook-event',
    auth: 'session',
    role: 'admin',
    access: 'write',
    queue: true,
    summary: 'Send one event again (same webhook-id and body, fresh signature) as a new attempt series',
    params: s.IdParam,
    body: s.ResendBody,
    errors: { 409: 'The endpoint is disabled or deleted, the event type is no longer subscribed (event_not_subscribed), or erased' },
    status: 202,
    response: s.ResendResult,
  },
  {
    method: 'POST',
    path: '/api/webhooks/{id}/replay',
    handler: 'replay-webhook',
    auth: 'session',
    role: 'admin',
    access: 'write',
    queue: true,
    summary:
      'Queue again every event that failed to reach the endpoint since a time (at most 14 days back); 200 with the running job if one runs',
    params: s.IdParam,
    body: s.ReplayBody,
    errors: { 409: 'The endpoint is disabled or deleted, or the workspace already runs 3 replay jobs' },
    status: 202,
    alsoStatus: { 200: 'A replay job already runs for this endpoint: that job, not a new one' },
    response: s.dataOf(s.ReplayJob),
  },
  {
    method: 'GET',
    path: '/api/webhooks/{id}/replay',
    handler: 'get-webhook-replay',
    auth: 'session',
    access: 'read',
    summary: "The endpoint's latest replay job and its progress, or null",
    params: s.IdParam,
    status: 200,
    response: s.dataOf(z.nullable(s.ReplayJob)),
  },
  {
    method: 'POST',
    path: '/api/webhooks/{id}/rotate-secret',
    handler: 'rotate-webhook-secret',
    auth: 'session',
    role: 'admin',
    access: 'write',
    summary: 'Rotate the signing secret; the new one is shown only here, and the old one keeps signing too during the grace window',
    params: s.IdParam,
    body: s.RotateSecretBody,
    errors: { 409: 'The endpoint is deleted' },
    status: 200,
    response: s.RotatedSecret,
  },
  {
    method: 'PUT',
    path: '/api/session/password',
    handler: 'change-password',
    auth: 'session',
    beforePasswordChange: true,
    access: 'write',
    summary: 'Change your own password; your other sessions end',
    body: s.ChangePasswordBody,
    errors: { 429: 'Too many wrong current passwords from this address; see Retry-After' },
    status: 200,
    response: s.Success,
  },
  {
    method: 'GET',
    path: '/api/overview',
    handler: 'get-overview',
    auth: 'session',
    access: 'read',
    summary: 'The console overview: pipeline summary and open requisitions',
    status: 200,
    response: s.Overview,
  },
  {
    method: 'GET',
    path: '/api/settings/pipeline',
    handler: 'get-pipeline-settings',
    auth: 'session',
    access: 'read',
    summary: 'The stuck threshold per stage, with the defaults',
    query: s.PipelineSettingsQuery,
    status: 200,
    response: s.PipelineSettings,
  },
  {
    method: 'PUT',
    path: '/api/settings/pipeline',
    handler: 'update-pipeline-settings',
    auth: 'session',
    role: 'admin',
    access: 'write',
    summary: 'Set the stuck thresholds (a stage left out goes back to its default; 0 turns it off) and, when given, the retention rules',
    body: s.PipelineSettingsBody,
    status: 200,
    response: s.PipelineSettingsSaved,
  },
  {
    method: 'GET',
    path: '/api/members',
    handler: 'list-members',
    auth: 'session',
    access: 'read',
    summary: "List the workspace's members and their roles",
    status: 200,
    response: s.dataOf(z.array(s.Member)),
  },
  {
    method: 'POST',
    path: '/api/members',
    handler: 'add-member',
    auth: 'session',
    role: 'admin',
    access: 'write',
    summary: 'Add a member; the temporary password is shown only here',
    body: s.AddMemberBody,
    errors: {
      409: 'Already a member (conflict), or an address that cannot be added (email_unavailable)',
      429: "The day's refused adds are used up",
    },
    status: 201,
    response: s.AddedMember,
  },
  {
    method: 'PATCH',
    path: '/api/members/{id}',
    handler: 'change-member-role',
    auth: 'session',
    role: 'admin',
    access: 'write',
    summary: "Change a member's role",
    params: s.IdParam,
    body: s.ChangeRoleBody,
    errors: { 409: 'The workspace would be left without an admin' },
    status: 200,
    response: s.dataOf(s.Member),
  },
  {
    method: 'DELETE',
    path: '/api/members/{id}',
    handler: 'remove-member',
    auth: 'session',
    role: 'admin',
    access: 'write',
    summary: 'Remove a member; their sessions end at once',
    params: s.IdParam,
    errors: { 409: 'The workspace would be left without an admin' },
    status: 200,
    response: s.Success,
  },
  {
    method: 'POST',
    path: '/api/members/{id}/reset-password',
    handler: 'reset-member-password',
    auth: 'session',
    role: 'admin',
    access: 'write',
    summary: "Reset a member's password; the temporary password is shown only here",
    params: s.IdParam,
    status: 200,
    response: s.TemporaryPassword,
  },
  {
    method: 'DELETE',
    path: '/api/members/{id}/lockout',
    handler: 'clear-member-lockout',
    auth: 'session',
    role: 'admin',
    access: 'write',
    summary: "Clear a member's sign-in lockouts",
    params: s.IdParam,
    status: 200,
    response: s.LockoutCleared,
  },
  {
    method: 'GET',
    path: '/api/audit',
    handler: 'list-audit',
    auth: 'session',
    role: 'admin',
    access: 'read',
    summary: "The workspace's audit log, newest first; a filtered page may be short, with a next_cursor",
    query: s.AuditQuery,
    errors: { 403: 'Only workspace admins may read it' },
    status: 200,
    response: s.AuditPage,
  },
] as const satisfies readonly Route[];

/** A route table line; the type `apiHandler` and `route()` work with. */
export type RouteDef = (typeof lines)[number];

export const CONSOLE_PREFIX = '/api';

/** The session twin of a token route marked `console`: same handler, schemas and answers. */
function consoleTwin(r: Route): Route {
  const { scope: _scope, console: twin, ...rest } = r;
  return {
    ...rest,
    ...(typeof twin === 'object' && { role: twin.role }),
    path: `${CONSOLE_PREFIX}${r.path.slice(API_PREFIX.length)}`,
    auth: 'session',
    twinOf: r.path,
  };
}

/** Every route the API serves: the table's lines, then the console's twins of the lines marked `console`. */
export const routes: readonly Route[] = [...lines, ...(lines as readonly Route[]).filter((r) => r.console).map(consoleTwin)];

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
