/**
 * Shared setup of the malformed-input tests (test/integration/malformed/*.test.ts): a stack with
 * one tenant, a `*` token, a shared session that nothing may log out or lock, a cheap-to-hash
 * account for valid logins, and `send`, which gives a request whatever its route needs to reach
 * the handler: a `*` token on token routes, a session cookie on session routes, nothing on public
 * routes. Each test file calls `useMalformedFixture()` at its top and gets its own stack: in the
 * shared graph this module loads once per worker, not once per file.
 */
import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { ERROR_CODES } from '../../../lib/errors';
import { routes, type Route } from '../../../lib/routes';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../../helpers/stack';
import type { Case } from './cases';
import { createUser } from '../../../lib/store/users';
import { putSession } from '../../../lib/store/sessions';
import { newSessionId, SESSION_COOKIE, sessionDigest } from '../../../lib/auth/session';

export const ROUTES: readonly Route[] = routes;
export const label = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;
/** DELETE /api/session ends the session it is called with. */
export const logsOut = (r: Pick<Route, 'method' | 'path'>) => r.method === 'DELETE' && r.path === '/api/session';

export let stack: Stack;
export let tenant: TestTenant;
export let token: string;
/** The shared session: logged in once, never logged out, never a failed login for its email. */
export let sessionUser: { id: string; email: string };
export let cookie: string;
/** The account valid login bodies use (not the shared session's, so the sweep cannot touch it). */
export let loginUser: { id: string; email: string };

/** Registers the file's set-up and tear-down: call it at the top of each test file, before its own hooks. */
export function useMalformedFixture() {
  beforeAll(async () => {
    stack = await startStack({ imports: true });
    tenant = await stack.tenant();
    token = await tenant.token(['*']);
    sessionUser = await tenant.user('admin');
    loginUser = await cheapUser(tenant, `login-${randomUUID().slice(0, 8)}@${tenant.slug}.example.com`);
    cookie = await stack.login(sessionUser.email, PASSWORD);
  });
  afterAll(() => stack?.close());
}

/**
 * A user whose stored hash has cheap scrypt parameters. verifyPassword takes N, r and p from
 * the stored hash, so logging in as this user costs ~1 ms instead of ~0.3 s of CPU: the sweep
 * sends dozens of valid logins at once, and at full strength they queue on the one process's
 * libuv pool (the local gateway runs every handler in-process, unlike Lambda) past the
 * handler's 10 s timeout, which middy turns into a 500.
 */
export async function cheapUser(t: TestTenant, email: string) {
  const params = { N: 2 ** 10, r: 8, p: 1 };
  const salt = randomBytes(16);
  const key = scryptSync(PASSWORD.normalize('NFC'), salt, 32, params);
  const hash = ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
  const u = await createUser(t.id, email, hash, 'recruiter');
  return { id: u.id, email: u.email };
}

/**
 * A session of its own for a request that logs out. Written straight to the table (as
 * tenant.token() does for tokens): a login per request would cost a scrypt hash each.
 */
export async function freshCookie(user = sessionUser): Promise<string> {
  const id = newSessionId();
  const at = new Date().toISOString();
  await putSession(sessionDigest(id), {
    tenant_id: tenant.id,
    tenant_slug: tenant.slug,
    user_id: user.id,
    email: user.email,
    role: 'admin',
    created_at: at,
    last_seen_at: at,
  });
  return `${SESSION_COOKIE}=${id}`;
}

/** What a request to the route must carry to get past the gateway. */
export async function credentialsFor(r: Route): Promise<Record<string, string>> {
  if (r.auth === 'token') return { Authorization: `Bearer ${token}` };
  // A password change ends the user's other sessions and counts wrong current passwords, and
  // turning two-factor off counts every password check (8 in flight would lock the account): each
  // request gets an account of its own, so requests cannot affect each other or the shared session.
  if (r.path === '/api/session/password' || r.path === '/api/account/two-factor/disable') {
    return { Cookie: await freshCookie(await cheapUser(tenant, `password-${randomUUID().slice(0, 8)}@${tenant.slug}.example.com`)) };
  }
  if (r.auth === 'session') return { Cookie: logsOut(r) ? await freshCookie() : cookie };
  return {};
}

/** `{ error, code, field? }`: a sentence, a code from ERROR_CODES, and nothing else. */
export const isErrorBody = (body: unknown): boolean =>
  !!body &&
  typeof body === 'object' &&
  !Array.isArray(body) &&
  Object.keys(body).every((k) => ['error', 'code', 'field'].includes(k)) &&
  typeof (body as { error?: unknown }).error === 'string' &&
  (body as { error: string }).error.length > 0 &&
  (ERROR_CODES as readonly unknown[]).includes((body as { code?: unknown }).code);

/** The request a case makes of a route: path and query, headers (credentials included) and body. */
export function requestOf(r: Route, c: Case, credentials: Record<string, string>) {
  const path = r.path.replace(/\{[^}]+\}/g, c.pathId ?? randomUUID()) + (c.query !== undefined ? `?${c.query}` : '');
  // Header and cookie cases bring their own Authorization or Cookie, which replaces the
  // route's credential of that kind; the other kind is still sent.
  const headers = { ...credentials, ...(c.headers ?? {}) };
  // A route without a body still gets a JSON body for POST, so the request is otherwise valid;
  // an upload route gets a file of its first media type.
  const upload = r.upload && !c.rawBody ? validUpload(r) : undefined;
  const rawBody = c.rawBody ?? upload?.text ?? (r.method === 'GET' ? undefined : JSON.stringify(validBody(r)));
  if (rawBody !== undefined && !c.rawBody && !('Content-Type' in headers)) headers['Content-Type'] = upload?.type ?? 'application/json';
  return { path, headers, rawBody };
}

export async function send(r: Route, c: Case) {
  const { path, headers, rawBody } = requestOf(r, c, await credentialsFor(r));
  return stack.call(r.method, path, { rawBody, headers });
}

export interface Answer {
  status: number;
  text: string;
  body: any;
}

/**
 * What every sweep asserts of a route's answers: never a 5xx; every refusal exactly
 * `{ error, code, field? }` (a careers page refuses with its not-found page; a path the gateway
 * cannot decode is refused by the gateway itself, with its JSON, as API Gateway does); and
 * without a query schema the query string is ignored, so the answer is the baseline's.
 */
export function sweepFailures(r: Route, baseline: Answer, results: readonly (readonly [Case, Answer])[]): string[] {
  const failures: string[] = [];
  for (const [c, res] of results) {
    if (res.status >= 500) failures.push(`${c.name}: ${res.status} ${res.text.slice(0, 200)}`);
    else if ((res.status < 200 || res.status >= 300) && !isErrorBody(res.body) && !(r.html && res.text.startsWith('<!doctype html>'))) {
      failures.push(`${c.name}: ${res.status} body is not ${r.html ? 'a page' : '{ error: string }'}: ${res.text.slice(0, 200)}`);
    }
    if (!r.query && c.query !== undefined && res.status !== baseline.status) {
      failures.push(`${c.name}: ${res.status}, not ${baseline.status} as without a query: ${res.text.slice(0, 200)}`);
    }
  }
  return failures;
}

/**
 * The sweep reached the handler: it did not stop before it for every case. A route with a query,
 * body or path schema refuses some input with 400; one without any has nothing to refuse and
 * answers. A careers page answers its refusals with the not-found page.
 */
export function reachedHandler(r: Route, results: readonly (readonly [Case, Answer])[]): boolean {
  if (r.html) return results.some(([, res]) => res.status === 404 && res.text.startsWith('<!doctype html>'));
  if (r.query || r.body || r.params) return results.some(([, res]) => res.status === 400);
  return results.some(([, res]) => res.status === r.status);
}

/**
 * The cases of a route, 8 in flight at a time, answers in case order. A sweep checks answers, it
 * is not a load test: 85 creates at once all update the workspace's counter item in their
 * transactions, and on two busy cores the last of them waited past the route's 10 s.
 */
export async function inPool<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, size = 8): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
    }),
  );
  return out;
}

/** A file an upload route accepts (one valid row), for cases that only mangle the query, headers or path. */
export function validUpload(r: Route): { type: string; text: string } {
  return { type: r.upload![0]!, text: `name\nValid Body ${randomUUID().slice(0, 8)}\n` };
}

/** A body the route accepts, for cases that only mangle the query, headers or path. */
export function validBody(route: Route): unknown {
  // A console twin accepts what its token route accepts.
  const r = route.twinOf ? { ...route, path: route.twinOf } : route;
  // The reason the pipeline body below gives stays in the list.
  if (r.path === '/api/settings/pipeline')
    return {
      stuck_days: { applied: 4 },
      rejection_reasons: [{ id: 'no_response', label: 'Did not respond', type: 'we_rejected' }],
      require_rejection_reason: false,
      offer_required: false,
    };
  if (r.path === '/api/settings/tokens') return { default_days: 90, max_days: 366 };
  if (r.path === '/api/settings/two-factor') return { required_for: 'off' };
  if (r.path === '/api/account/time-zone') return { time_zone: null };
  if (r.path === '/api/settings/careers')
    return { careers_name: 'Valid Body', careers_logo_url: 'https://example.com/logo.png', careers_privacy_url: null };
  if (r.path === '/api/session/two-factor') return { code: '000000' };
  // The right password of the request's own account (credentialsFor), which has no two-factor: nothing changes.
  if (r.path === '/api/account/two-factor/disable') return { password: PASSWORD };
  // Not six digits: the handler refuses it before it reads anything.
  if (r.path === '/api/account/two-factor/confirm') return { code: 'not-a-code' };
  // A taken email: the handler refuses it (409) before hashing a temporary password, which costs
  // 128 MiB of scrypt each; dozens at once would queue past the handler timeout in one process.
  if (r.path === '/api/members') return { email: sessionUser.email, role: 'recruiter' };
  if (r.path === '/api/members/{id}') return { role: 'recruiter' };
  // A wrong current password: the handler checks it (cheap for cheapUser) and changes nothing.
  if (r.path === '/api/session/password') return { current_password: `not ${PASSWORD}`, new_password: 'a brand new long password' };
  if (r.path.endsWith('/candidates') || r.path === '/api/v1/candidates/{id}') return { name: 'Valid Body' };
  if (r.path === '/api/v1/requisitions' || r.path === '/api/v1/requisitions/{id}') return { title: 'Valid Body' };
  if (r.path === '/api/v1/requisitions/{id}/status') return { status: 'open' };
  if (r.path === '/api/v1/requisitions/{id}/interview-plan') return { steps: [] };
  if (r.path === '/api/v1/candidates/{id}/interviews')
    return { step_id: randomUUID(), start: '2027-01-04T09:00:00Z', end: '2027-01-04T10:00:00Z', time_zone: 'UTC' };
  if (r.path === '/api/v1/interviews/{id}') return { location: 'Valid Body' };
  if (r.path === '/api/v1/requisitions/{id}/posting') return { published: false, description: 'Valid body' };
  // A board and job that exist nowhere: the valid body reaches the posting read and its 404.
  if (r.path === '/api/boards/{slug}/jobs/{id}/applications' || r.path === '/careers/{slug}/jobs/{id}/apply')
    return {
      name: 'Valid Body',
      email: 'valid.body@example.com',
      answers: {},
      consent: { accepted: true, text: 'I accept.', version: '1' },
      form_token: 'v1.0.forged',
    };
  if (r.path === '/api/boards/{slug}/jobs/{id}/uploads' || r.path === '/careers/{slug}/jobs/{id}/cv') return { form_token: 'v1.0.forged' };
  if (r.path === '/api/v1/interviews/{id}/scorecards') return { overall: 'yes' };
  if (r.path.endsWith('/pipeline'))
    return { candidate_id: randomUUID(), stage: 'rejected', rejection_reason_id: 'no_response', rejection_note: 'Valid note' };
  if (r.path === '/api/session') return { email: loginUser.email, password: PASSWORD };
  if (r.path === '/api/tokens') return { name: 'Valid Body', scopes: ['pipeline:read'] };
  if (r.path === '/api/webhooks') return { url: 'https://hooks.example.com/sweep' };
  if (r.path === '/api/webhooks/{id}') return { active: false };
  if (r.path === '/api/webhooks/{id}/resend') return { event_id: `evt_${'0'.repeat(32)}` };
  if (r.path === '/api/webhooks/{id}/replay') return { since: new Date(Date.now() - 3_600_000).toISOString() };
  if (r.path === '/api/v1/candidates/{id}/offers')
    return { compensation: { amount: 1000, currency: 'EUR', period: 'month' }, start_date: '2027-01-04' };
  if (r.path === '/api/v1/offers/{id}') return { location: 'Valid Body' };
  if (r.path === '/api/v1/offers/{id}/status') return { status: 'pending_approval' };
  if (r.path === '/api/offers/{id}/approvals') return { decision: 'approve' };
  if (r.path === '/api/v1/placements/{id}') return { start_date: '2027-02-01' };
  if (r.path === '/api/v1/placements/{id}/cancel') return { reason: 'Never started' };
  if (r.path === '/api/v1/candidates/{id}/placement')
    return {
      start_date: '2027-02-01',
      compensation: { amount: 1000, currency: 'EUR', period: 'month' },
      employment_type: 'contract',
      location: 'Valid Body',
    };
  // No approval steps: what a workspace has before anyone sets a chain.
  if (r.path === '/api/settings/offer-approvals') return { steps: [] };
  if (r.path === '/api/v1/people/{id}/merge') return { from: randomUUID() };
  if (r.path === '/api/v1/people/{id}/notes') return { body: 'Valid body', visibility: 'team' };
  if (r.path === '/api/v1/people/{id}/notes/{note_id}') return { body: 'Valid body' };
  if (r.path === '/api/v1/uploads') return { filename: 'valid-body.pdf', content_type: 'application/pdf', size: 1024 };
  if (r.path === '/api/v1/people/{id}/files') return { upload_id: randomUUID(), kind: 'resume' };
  return {};
}
