/**
 * Shared setup of the authentication and authorization tests (test/integration/auth/*.test.ts):
 * one tenant with an admin token, a signed-in user and a probe id of each kind, and helpers that
 * call any route of the table with sample input. Each test file calls `useAuthFixture()` at its top
 * and gets its own stack: in the shared graph this module loads once per worker, not once per file.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { GATEWAY_ERRORS } from '../../../lib/gateway-responses';
import { SCOPES, type Scope } from '../../../lib/model';
import { routes, type Route } from '../../../lib/routes';
import { captureOutput as capture } from '../../helpers/capture';
import { PASSWORD, startStack, type Stack } from '../../helpers/stack';

export type Tenant = Awaited<ReturnType<Stack['tenant']>>;
export type Response = Awaited<ReturnType<Stack['call']>>;

export const ROUTES: readonly Route[] = routes;
export const TOKEN_ROUTES = ROUTES.filter((r) => r.auth === 'token');
export const SESSION_ROUTES = ROUTES.filter((r) => r.auth === 'session');
export const PUBLIC_ROUTES = ROUTES.filter((r) => r.auth === 'none');
/** DELETE /api/session ends the session it is called with. */
export const logsOut = (r: Pick<Route, 'method' | 'path'>) => r.method === 'DELETE' && r.path === '/api/session';
export const NAMED_SCOPES = SCOPES.filter((s): s is Exclude<Scope, '*'> => s !== '*');
export const label = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;

export const UNAUTHORIZED = { error: GATEWAY_ERRORS.unauthorized.error, code: GATEWAY_ERRORS.unauthorized.code };
export const FORBIDDEN = { error: GATEWAY_ERRORS.accessDenied.error, code: GATEWAY_ERRORS.accessDenied.code };
export const NOT_FOUND = { error: GATEWAY_ERRORS.notFound.error, code: GATEWAY_ERRORS.notFound.code };

/**
 * A request per route that a caller with the right credentials (the route's scope, a session,
 * nothing for public routes) may make, and the status it gets. POST /pipeline names a candidate,
 * and the {id} routes a token or webhook, that does not exist: 404 comes from the handler (not
 * the gateway's "Not found"), so the request got past the authorizer and the policy.
 */
export const SAMPLES: Record<string, () => { body?: unknown; rawBody?: string; contentType?: string; status: number }> = {
  'GET /api/v1/candidates': () => ({ status: 200 }),
  'POST /api/v1/candidates': () => ({ body: { name: 'Scope Check' }, status: 201 }),
  'GET /api/v1/candidates/{id}': () => ({ status: 404 }),
  'PATCH /api/v1/candidates/{id}': () => ({ body: { name: 'Scope Check' }, status: 404 }),
  'POST /api/v1/candidates/{id}/erase': () => ({ status: 404 }),
  'POST /api/v1/candidates/{id}/screening/overturn': () => ({ status: 404 }),
  'GET /api/v1/people/{id}': () => ({ status: 404 }),
  'POST /api/v1/people/{id}/merge': () => ({ body: { from: randomUUID() }, status: 404 }),
  // A person (and a note, a file) that does not exist: the handler's 404, past the authorizer and the table.
  'POST /api/v1/people/{id}/notes': () => ({ body: { body: 'Scope check', visibility: 'team' }, status: 404 }),
  'GET /api/v1/people/{id}/notes': () => ({ status: 404 }),
  'GET /api/v1/people/{id}/notes/{note_id}': () => ({ status: 404 }),
  'PATCH /api/v1/people/{id}/notes/{note_id}': () => ({ body: { body: 'Scope check' }, status: 404 }),
  'DELETE /api/v1/people/{id}/notes/{note_id}': () => ({ status: 404 }),
  'GET /api/v1/people/{id}/activity': () => ({ status: 404 }),
  // A presigned POST that nothing uses: no file is made until an upload is attached.
  'POST /api/v1/uploads': () => ({ body: { filename: 'scope-check.pdf', content_type: 'application/pdf', size: 1024 }, status: 201 }),
  'GET /api/v1/uploads/limits': () => ({ status: 200 }),
  // An upload that was never issued: the handler's 404.
  'GET /api/v1/uploads/{id}': () => ({ status: 404 }),
  'POST /api/v1/people/{id}/files': () => ({ body: { upload_id: randomUUID(), kind: 'resume' }, status: 404 }),
  'GET /api/v1/people/{id}/files': () => ({ status: 404 }),
  'GET /api/v1/people/{id}/files/{file_id}': () => ({ status: 404 }),
  'GET /api/v1/people/{id}/files/{file_id}/text': () => ({ status: 404 }),
  'GET /api/v1/people/{id}/files/{file_id}/download': () => ({ status: 404 }),
  'DELETE /api/v1/people/{id}/files/{file_id}': () => ({ status: 404 }),
  // A job whose one row fails: the import runs, but no candidate appears while counts are compared.
  'POST /api/v1/candidates/imports': () => ({
    rawBody: `name,email\nScope Check,not-an-email-${randomUUID().slice(0, 8)}\n`,
    contentType: 'text/csv',
    status: 202,
  }),
  'GET /api/v1/candidates/imports/{id}': () => ({ status: 404 }),
  'GET /api/v1/candidates/imports/{id}/errors': () => ({ status: 404 }),
  'GET /api/v1/requisitions': () => ({ status: 200 }),
  'POST /api/v1/requisitions': () => ({ body: { title: 'Scope Check' }, status: 201 }),
  'GET /api/v1/requisitions/{id}': () => ({ status: 404 }),
  'PATCH /api/v1/requisitions/{id}': () => ({ body: { title: 'Scope Check' }, status: 404 }),
  'POST /api/v1/requisitions/{id}/status': () => ({ body: { status: 'open' }, status: 404 }),
  'GET /api/v1/requisitions/{id}/interview-plan': () => ({ status: 404 }),
  'PUT /api/v1/requisitions/{id}/interview-plan': () => ({ body: { steps: [] }, status: 404 }),
  // A candidate and an interview that do not exist: the handler's 404, past the authorizer and the table.
  'POST /api/v1/candidates/{id}/interviews': () => ({
    body: { step_id: randomUUID(), start: '2027-01-04T09:00:00Z', end: '2027-01-04T10:00:00Z', time_zone: 'UTC' },
    status: 404,
  }),
  'GET /api/v1/interviews': () => ({ status: 200 }),
  'GET /api/v1/interviews/{id}': () => ({ status: 404 }),
  'PATCH /api/v1/interviews/{id}': () => ({ body: { location: 'Scope Check' }, status: 404 }),
  'DELETE /api/v1/interviews/{id}': () => ({ status: 404 }),
  'GET /api/v1/requisitions/{id}/posting': () => ({ status: 404 }),
  'PUT /api/v1/requisitions/{id}/posting': () => ({ body: { published: false, description: 'Scope check' }, status: 404 }),
  'POST /api/v1/interviews/{id}/scorecards': () => ({ body: { overall: 'yes' }, status: 404 }),
  'GET /api/v1/interviews/{id}/scorecards': () => ({ status: 404 }),
  'GET /api/v1/candidates/{id}/scorecards': () => ({ status: 404 }),
  'GET /api/v1/pipeline': () => ({ status: 200 }),
  'POST /api/v1/pipeline': () => ({
    body: { candidate_id: randomUUID(), stage: 'rejected', rejection_reason_id: 'no_response', rejection_note: 'Scope check' },
    status: 404,
  }),
  'POST /api/v1/candidates/{id}/offers': () => ({
    body: { compensation: { amount: 1000, currency: 'EUR', period: 'month' }, start_date: '2027-01-04' },
    status: 404,
  }),
  'GET /api/v1/candidates/{id}/offers': () => ({ status: 404 }),
  'GET /api/v1/offers/{id}': () => ({ status: 404 }),
  'PATCH /api/v1/offers/{id}': () => ({ body: { location: 'Scope Check' }, status: 404 }),
  'POST /api/v1/offers/{id}/status': () => ({ body: { status: 'pending_approval' }, status: 404 }),
  'POST /api/offers/{id}/approvals': () => ({ body: { decision: 'approve' }, status: 404 }),
  'GET /api/offers/approvals': () => ({ status: 200 }),
  'GET /api/settings/offer-approvals': () => ({ status: 200 }),
  'GET /api/v1/placements': () => ({ status: 200 }),
  'GET /api/v1/placements/{id}': () => ({ status: 404 }),
  'PATCH /api/v1/placements/{id}': () => ({ body: { start_date: '2027-02-01' }, status: 404 }),
  'POST /api/v1/placements/{id}/cancel': () => ({ body: { reason: 'Never started' }, status: 404 }),
  'POST /api/v1/candidates/{id}/placement': () => ({
    body: {
      start_date: '2027-02-01',
      compensation: { amount: 1000, currency: 'EUR', period: 'month' },
      employment_type: 'contract',
      location: 'Scope Check',
    },
    status: 404,
  }),
  'PUT /api/settings/offer-approvals': () => ({ body: { steps: [] }, status: 200 }),
  'GET /api/v1/openapi.json': () => ({ status: 200 }),
  // Public: a board with nothing posted, and a job on none.
  'GET /api/boards/{slug}/jobs': () => ({ status: 200 }),
  'GET /api/boards/{slug}/jobs/{id}': () => ({ status: 404 }),
  // Public HTML: a workspace with nothing posted answers the not-found page.
  'GET /careers/{slug}': () => ({ status: 404 }),
  'GET /careers/{slug}/jobs/{id}': () => ({ status: 404 }),
  // Public HTML: a withdraw link no one signed answers the neutral page.
  'GET /careers/{slug}/withdraw': () => ({ status: 404 }),
  'POST /careers/{slug}/withdraw': () => ({ body: { t: 'w1.forged' }, status: 404 }),
  'POST /careers/{slug}/jobs/{id}/cv': () => ({ body: { form_token: 'v1.0.forged' }, status: 404 }),
  'POST /careers/{slug}/jobs/{id}/apply': () => ({
    body: {
      name: 'Valid Body',
      email: 'valid.body@example.com',
      answers: {},
      consent: { accepted: true, text: 'I accept.', version: '1' },
      form_token: 'v1.0.forged',
    },
    status: 404,
  }),
  'POST /api/session': () => ({ body: { email: user.email, password: PASSWORD }, status: 200 }),
  'POST /api/boards/{slug}/jobs/{id}/applications': () => ({
    body: {
      name: 'Valid Body',
      email: 'valid.body@example.com',
      answers: {},
      consent: { accepted: true, text: 'I accept.', version: '1' },
      form_token: 'v1.0.forged',
    },
    status: 404,
  }),
  'POST /api/boards/{slug}/jobs/{id}/uploads': () => ({ body: { form_token: 'v1.0.forged' }, status: 404 }),
  'GET /api/session': () => ({ status: 200 }),
  'DELETE /api/session': () => ({ status: 200 }),
  'POST /api/tokens': () => ({ body: { name: 'Auth Check', scopes: ['pipeline:read'] }, status: 201 }),
  'GET /api/tokens': () => ({ status: 200 }),
  'DELETE /api/tokens/{id}': () => ({ status: 404 }),
  'POST /api/tokens/{id}/rotate': () => ({ body: {}, status: 404 }),
  'GET /api/webhooks': () => ({ status: 200 }),
  'POST /api/webhooks': () => ({ body: { url: 'https://hooks.example.com/auth-check' }, status: 201 }),
  'GET /api/webhooks/{id}': () => ({ status: 404 }),
  'PATCH /api/webhooks/{id}': () => ({ body: { active: false }, status: 404 }),
  'DELETE /api/webhooks/{id}': () => ({ status: 404 }),
  'POST /api/webhooks/{id}/test': () => ({ status: 404 }),
  // Refused by its schema (too short) after the authorizer: no attempt is counted, nothing changes.
  'PUT /api/session/password': () => ({ body: { current_password: PASSWORD, new_password: 'short' }, status: 400 }),
  'GET /api/overview': () => ({ status: 200 }),
  'GET /api/settings/pipeline': () => ({ status: 200 }),
  'PUT /api/settings/pipeline': () => ({
    body: {
      stuck_days: { applied: 3 },
      // Keeps the reason the POST /pipeline sample gives.
      rejection_reasons: [{ id: 'no_response', label: 'Did not respond', type: 'we_rejected' }],
      require_rejection_reason: false,
      offer_required: false,
    },
    status: 200,
  }),
  'GET /api/settings/tokens': () => ({ status: 200 }),
  'PUT /api/settings/tokens': () => ({ body: { default_days: 90, max_days: 366 }, status: 200 }),
  'GET /api/members': () => ({ status: 200 }),
  'POST /api/members': () => ({ body: { email: `auth-${randomUUID()}@example.com`, role: 'recruiter' }, status: 201 }),
  'PATCH /api/members/{id}': () => ({ body: { role: 'recruiter' }, status: 404 }),
  'DELETE /api/members/{id}': () => ({ status: 404 }),
  'POST /api/members/{id}/reset-password': () => ({ status: 404 }),
  'DELETE /api/members/{id}/lockout': () => ({ status: 404 }),
  'POST /api/members/{id}/deactivate': () => ({ status: 404 }),
  'POST /api/members/{id}/reactivate': () => ({ status: 404 }),
  'GET /api/webhooks/{id}/deliveries': () => ({ status: 404 }),
  'POST /api/webhooks/{id}/resend': () => ({ body: { event_id: `evt_${'0'.repeat(32)}` }, status: 404 }),
  'POST /api/webhooks/{id}/replay': () => ({ body: { since: new Date(Date.now() - 3_600_000).toISOString() }, status: 404 }),
  'GET /api/webhooks/{id}/replay': () => ({ status: 404 }),
  'POST /api/webhooks/{id}/rotate-secret': () => ({ body: {}, status: 404 }),
  'GET /api/audit': () => ({ status: 200 }),
  'GET /api/mentions': () => ({ status: 200 }),
  'POST /api/mentions/{id}/read': () => ({ status: 404 }),
  // A fully signed-in session has no second step to take.
  'POST /api/session/two-factor': () => ({ body: { code: '000000' }, status: 409 }),
  'GET /api/account/two-factor': () => ({ status: 200 }),
  'POST /api/account/two-factor': () => ({ status: 200 }),
  'POST /api/account/two-factor/confirm': () => ({ body: { code: 'not-a-code' }, status: 400 }),
  // Refused by its schema after the authorizer: no password attempt is counted.
  'POST /api/account/two-factor/disable': () => ({ body: { password: '' }, status: 400 }),
  // Clearing a zone the shared session never set: nothing changes.
  'PUT /api/account/time-zone': () => ({ body: { time_zone: null }, status: 200 }),
  'GET /api/settings/two-factor': () => ({ status: 200 }),
  'PUT /api/settings/two-factor': () => ({ body: { required_for: 'off' }, status: 200 }),
  'GET /api/settings/careers': () => ({ status: 200 }),
  'PUT /api/settings/careers': () => ({
    body: { careers_name: 'Scope Check', careers_logo_url: null, careers_privacy_url: 'https://example.com/privacy' },
    status: 200,
  }),
  'POST /api/members/{id}/reset-two-factor': () => ({ status: 404 }),
};
export const sampleFor = (r: Route) => {
  // A console twin takes its token route's request and gets the same answer.
  const make = SAMPLES[label(r.twinOf ? { method: r.method, path: r.twinOf } : r)];
  expect(make, `add a sample request for ${label(r)} to SAMPLES`).toBeDefined();
  return make!();
};
/** The route answered what its sample request gets; a 404 must be the handler's, not the gateway's. */
export const expectSample = (r: Route, res: Response, what = label(r)) => {
  expect(res.status, `${what}: ${res.text}`).toBe(sampleFor(r).status);
  if (res.status === 404) expect(res.body, `${what}: the gateway's 404, not the handler's`).not.toEqual(NOT_FOUND);
};
/** Path of a route with its parameters filled in. */
export const pathOf = (r: Route, id: string = randomUUID()) => r.path.replace(/\{[^}]+\}/g, id);
export const callRoute = (r: Route, opts: { token?: string; cookie?: string; headers?: Record<string, string>; id?: string } = {}) => {
  const { body, rawBody, contentType } = sampleFor(r);
  const { cookie, id, headers, ...rest } = opts;
  return stack.call(r.method, pathOf(r, id), {
    ...rest,
    body,
    rawBody,
    headers: { ...(contentType && { 'Content-Type': contentType }), ...(cookie !== undefined && { Cookie: cookie }), ...headers },
  });
};

export let stack: Stack;
export let tenant: Tenant;
export let adminToken: string;
/** An admin user of `tenant` (password PASSWORD) and a session cookie of theirs. */
export let user: { id: string; email: string };
export let cookie: string;
/** A real token and a real webhook of `tenant`: refused {id} requests aim at them. */
export let probeTokenId: string;
export let probeWebhookId: string;
export let probeMemberId: string;
export const probeIdFor = (r: Route) =>
  r.path.startsWith('/api/webhooks/') ? probeWebhookId : r.path.startsWith('/api/members/') ? probeMemberId : probeTokenId;
/** Per route: a token with every scope but the route's, and one with only the route's (`useScopeMatrix`). */
export const matrix = new Map<Route, { without: string; only: string }>();

/** Registers the file's set-up and tear-down: call it at the top of each test file, before its own hooks. */
export function useAuthFixture() {
  beforeAll(setUp);
  afterAll(() => stack?.close());
}

/**
 * Fills `matrix` for the file that reads it (tokens.test.ts), after `useAuthFixture()`: two tokens
 * per token route, which every other file of the folder made and never used.
 */
export function useScopeMatrix() {
  beforeAll(async () => {
    for (const r of TOKEN_ROUTES) {
      matrix.set(r, {
        without: await tenant.token(NAMED_SCOPES.filter((s) => s !== r.scope)),
        only: await tenant.token([r.scope!]),
      });
    }
  });
}

async function setUp() {
  matrix.clear();
  stack = await startStack({ imports: true });
  tenant = await stack.tenant();
  adminToken = await tenant.token(['*']);
  user = await tenant.user('admin');
  cookie = await stack.login(user.email, PASSWORD);
  const probe = await stack.call('POST', '/api/tokens', {
    body: { name: 'probe', scopes: ['pipeline:read'] },
    headers: { Cookie: cookie },
  });
  expect(probe.status).toBe(201);
  probeTokenId = probe.body.data.id;
  const hook = await stack.call('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/probe' }, headers: { Cookie: cookie } });
  expect(hook.status, hook.text).toBe(201);
  probeWebhookId = hook.body.webhook.id;
  probeMemberId = (await tenant.user('recruiter')).id;
}

export const candidateCount = async () => {
  const res = await stack.call('GET', '/api/v1/candidates', { token: adminToken });
  expect(res.status).toBe(200);
  return res.body.count as number;
};

export function brokenChecksum(token: string): string {
  const last = token.at(-1)!;
  return token.slice(0, -1) + (last === 'a' ? 'b' : 'a');
}

/**
 * Capture everything the process writes (streams and console) and the responses recorded
 * with `record`, for the leak checks below. Put the output back with `restore`.
 */
export function captureOutput() {
  const { chunks: captured, restore } = capture({ console: true });
  const responses: Array<[string, Response]> = [];
  const record = async (what: string, res: Promise<Response>) => {
    const r = await res;
    responses.push([what, r]);
    return r;
  };
  return { captured, restore, logStart: stack.logs.length, responses, record };
}
