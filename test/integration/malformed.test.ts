/**
 * Hostile-input sweep: every route in the route table gets the same list of malformed query
 * strings and headers (and, when it takes a body, malformed bodies; when it has a path
 * parameter, hostile path values). Each request carries what the route needs to reach its
 * handler: a `*` token on token routes, a session cookie on session routes, nothing on public
 * routes. Whatever the input, the answer is never a 5xx, and every non-2xx body is exactly
 * `{ error: string, code, field? }`.
 */
import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../lib/errors';
import { GATEWAY_ERRORS } from '../../lib/gateway-responses';
import { routes, type Route } from '../../lib/routes';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

const ROUTES: readonly Route[] = routes;
const label = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;
/** DELETE /api/session ends the session it is called with. */
const logsOut = (r: Pick<Route, 'method' | 'path'>) => r.method === 'DELETE' && r.path === '/api/session';

let stack: Stack;
let tenant: TestTenant;
let token: string;
/** The shared session: logged in once, never logged out, never a failed login for its email. */
let sessionUser: { id: string; email: string };
let cookie: string;
/** The account valid login bodies use (not the shared session's, so the sweep cannot touch it). */
let loginUser: { id: string; email: string };
/** Hostile login bodies use only emails of this domain: no account, and not the ones above. */
const DECOY_DOMAIN = `decoy-${randomUUID().slice(0, 8)}.example`;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  sessionUser = await tenant.user('admin');
  loginUser = await cheapUser(tenant, `login-${randomUUID().slice(0, 8)}@${tenant.slug}.example.com`);
  cookie = await stack.login(sessionUser.email, PASSWORD);
});
afterAll(() => stack.close());

/**
 * A user whose stored hash has cheap scrypt parameters. verifyPassword takes N, r and p from
 * the stored hash, so logging in as this user costs ~1 ms instead of ~0.3 s of CPU: the sweep
 * sends dozens of valid logins at once, and at full strength they queue on the one process's
 * libuv pool (the local gateway runs every handler in-process, unlike Lambda) past the
 * handler's 10 s timeout, which middy turns into a 500.
 */
async function cheapUser(t: TestTenant, email: string) {
  const { createUser } = await import('../../lib/store/users');
  const params = { N: 2 ** 10, r: 8, p: 1 };
  const salt = randomBytes(16);
  const key = scryptSync(PASSWORD.normalize('NFC'), salt, 32, params);
  const hash = ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
  const u = await createUser(t.id, email, hash, 'member');
  return { id: u.id, email: u.email };
}

/**
 * A session of its own for a request that logs out. Written straight to the table (as
 * tenant.token() does for tokens): a login per request would cost a scrypt hash each.
 */
async function freshCookie(user = sessionUser): Promise<string> {
  const { newSessionId, sessionDigest, SESSION_COOKIE } = await import('../../lib/auth/session');
  const { putSession } = await import('../../lib/store/sessions');
  const id = newSessionId();
  const at = new Date().toISOString();
  await putSession(sessionDigest(id), {
    tenant_id: tenant.id, tenant_slug: tenant.slug, user_id: user.id, email: user.email,
    role: 'admin', created_at: at, last_seen_at: at,
  });
  return `${SESSION_COOKIE}=${id}`;
}

/** What a request to the route must carry to get past the gateway. */
async function credentialsFor(r: Route): Promise<Record<string, string>> {
  if (r.auth === 'token') return { Authorization: `Bearer ${token}` };
  // A password change ends the user's other sessions and counts wrong current passwords: each
  // request gets an account of its own, so requests cannot affect each other or the shared session.
  if (r.path === '/api/session/password') {
    return { Cookie: await freshCookie(await cheapUser(tenant, `password-${randomUUID().slice(0, 8)}@${tenant.slug}.example.com`)) };
  }
  if (r.auth === 'session') return { Cookie: logsOut(r) ? await freshCookie() : cookie };
  return {};
}

const HUGE = 'x'.repeat(100_000);
const LONG_QUERY = 8_000; // Node's default header limit is 16 KiB; API Gateway's URL limit is ~10 KiB.
const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

interface Case {
  name: string;
  query?: string;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Value for the path parameters, sent as is (already percent-encoded where needed). */
  pathId?: string;
}

const QUERY_CASES: Case[] = [
  ['empty limit', 'limit='],
  ['empty offset', 'offset='],
  ['empty stage', 'stage='],
  ['empty req_id', 'req_id='],
  ['empty status', 'status='],
  ['empty name and value', '='],
  ['only ampersands', '&&&'],
  ['value without name', '=x'],
  ['NUL in limit', 'limit=%00'],
  ['NUL in stage', 'stage=applied%00'],
  ['NUL in req_id', `req_id=${randomUUID()}%00`],
  ['NUL as name', '%00=1'],
  ['repeated limit', 'limit=1&limit=2'],
  ['repeated identical stage', 'stage=applied&stage=applied'],
  ['repeated unknown param', 'x=1&x=2&x=3'],
  ['limit in exponent notation', 'limit=1e2'],
  ['limit in hex', 'limit=0x10'],
  ['limit Infinity', 'limit=Infinity'],
  ['limit NaN', 'limit=NaN'],
  ['limit -0', 'limit=-0'],
  ['limit with spaces', 'limit=%20%205%20'],
  ['offset beyond 2^64', 'offset=99999999999999999999999'],
  ['limit as array syntax', 'limit[]=1'],
  ['bracketed name', 'a[b][c]=1'],
  ['very long limit', `limit=${'9'.repeat(LONG_QUERY)}`],
  ['very long stage', `stage=${'a'.repeat(LONG_QUERY)}`],
  ['very long req_id', `req_id=${'f'.repeat(LONG_QUERY)}`],
  ['very long parameter name', `${'n'.repeat(LONG_QUERY)}=1`],
  ['many parameters', Array.from({ length: 500 }, (_, i) => `p${i}=${i}`).join('&')],
  ['malformed percent escape', 'stage=%E0%A4%A'],
  ['lone percent', 'limit=%'],
  ['emoji stage', 'stage=%F0%9F%98%80'],
  ['right-to-left override', 'stage=%E2%80%AEdeilppa'],
  ['unicode digits in limit', 'limit=%D9%A5'],
  ['full-width digits in limit', 'limit=%EF%BC%95'],
  ['SQL-ish', "stage=applied'%20OR%201=1--"],
  ['expression-ish', 'stage=%3Astage&req_id=%23pk'],
  ['uuid with other case', `req_id=${randomUUID().toUpperCase()}`],
  ['nil uuid', 'req_id=00000000-0000-0000-0000-000000000000'],
  ['__proto__ bracket', '__proto__[x]=1'],
].map(([name, query]) => ({ name: `?${name}`, query }));

const BODY_CASES: Case[] = [
  ['null', 'null'],
  ['zero', '0'],
  ['negative number', '-1'],
  ['overflowing number', '1e309'],
  ['true', 'true'],
  ['a string', '"name"'],
  ['empty string', '""'],
  ['empty array', '[]'],
  ['array of objects', '[{"name":"x"}]'],
  ['empty object', '{}'],
  ['whitespace only', '   \n\t '],
  ['truncated JSON', '{"name":'],
  ['trailing comma', '{"name":"x",}'],
  ['single quotes', "{'name':'x'}"],
  ['NaN literal', 'NaN'],
  ['comment', '/* */ {"name":"x"}'],
  ['BOM before JSON', '\uFEFF{"name":"x"}'],
  ['two JSON documents', '{"name":"x"}{"name":"y"}'],
  ['deeply nested arrays', nestedArray(100_000)],
  ['deeply nested objects', nested(10_000)],
  ['deeply nested value of name', `{"name":${nested(5_000)}}`],
  ['deeply nested value of stage', `{"candidate_id":"${randomUUID()}","stage":${nested(5_000)}}`],
  ['deeply nested unknown field', `{"name":"x","extra":${nested(5_000)}}`],
  ['huge name', JSON.stringify({ name: HUGE })],
  ['huge email', JSON.stringify({ name: 'x', email: `${HUGE}@example.com` })],
  ['huge phone', JSON.stringify({ name: 'x', phone: '1'.repeat(100_000) })],
  ['huge resume_url', JSON.stringify({ name: 'x', resume_url: `https://example.com/${HUGE}` })],
  ['huge req_id', JSON.stringify({ name: 'x', req_id: HUGE })],
  ['huge candidate_id', JSON.stringify({ candidate_id: HUGE, stage: 'placed' })],
  ['huge stage', JSON.stringify({ name: 'x', candidate_id: randomUUID(), stage: HUGE })],
  ['huge field name', `{"${HUGE}":1}`],
  ['many fields', JSON.stringify(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`f${i}`, i])))],
  ['huge array value', JSON.stringify({ name: Array.from({ length: 50_000 }, () => 'x') })],
  ['unicode name', JSON.stringify({ name: 'Zoë 李小龍 😀 \u202Eevil\u200B\u0301' })],
  ['NUL in name', JSON.stringify({ name: 'a\u0000b' })],
  ['lone surrogate in name', '{"name":"\\ud800"}'],
  ['lone surrogate in stage', `{"candidate_id":"${randomUUID()}","stage":"\\udfff"}`],
  ['control characters', JSON.stringify({ name: '\u0001\u0002\u001b[31m' })],
  ['duplicate keys', '{"name":"x","name":"y","stage":"applied","stage":"placed"}'],
  ['__proto__ key', '{"__proto__":{"x":1}}'],
  ['__proto__ next to valid fields', '{"name":"x","candidate_id":"' + randomUUID() + '","stage":"placed","__proto__":{"polluted":1}}'],
  ['constructor.prototype', '{"constructor":{"prototype":{"polluted":1}}}'],
  ['prototype', '{"prototype":{"polluted":1}}'],
  ['toString as field', '{"name":"x","toString":"y"}'],
  ['stage named __proto__', `{"name":"x","candidate_id":"${randomUUID()}","stage":"__proto__"}`],
  ['stage named constructor', `{"name":"x","candidate_id":"${randomUUID()}","stage":"constructor"}`],
  ['stage named toString', `{"name":"x","candidate_id":"${randomUUID()}","stage":"toString"}`],
  ['null fields', '{"name":null,"email":null,"candidate_id":null,"stage":null,"req_id":null}'],
  ['number fields', '{"name":1,"email":2,"candidate_id":3,"stage":4,"req_id":5}'],
  ['boolean fields', '{"name":true,"candidate_id":false,"stage":true}'],
  ['array fields', '{"name":["x"],"candidate_id":["x"],"stage":["placed"]}'],
  ['object fields', '{"name":{"toString":"x"},"candidate_id":{},"stage":{}}'],
  ['nil uuid', '{"name":"x","req_id":"00000000-0000-0000-0000-000000000000","candidate_id":"00000000-0000-0000-0000-000000000000","stage":"placed"}'],
  ['max uuid', '{"name":"x","req_id":"ffffffff-ffff-ffff-ffff-ffffffffffff","candidate_id":"ffffffff-ffff-ffff-ffff-ffffffffffff","stage":"placed"}'],
  ['javascript: URL', '{"name":"x","resume_url":"javascript:alert(1)"}'],
  ['data: URL', '{"name":"x","resume_url":"data:text/html,<script>alert(1)</script>"}'],
  ['HTML in name', '{"name":"<script>alert(1)</script>"}'],
  ['DynamoDB expression in name', '{"name":"#pk = :pk OR attribute_exists(PK)"}'],
  ['key-like name', '{"name":"T#other-tenant","req_id":"' + randomUUID() + '"}'],
].map(([name, rawBody]) => ({ name: `body ${name}`, rawBody, headers: { 'Content-Type': 'application/json' } }));

const CONTENT_TYPE_CASES: Case[] = [
  ['none set (fetch sends text/plain)', undefined],
  ['text/plain', 'text/plain'],
  ['form', 'application/x-www-form-urlencoded'],
  ['multipart', 'multipart/form-data; boundary=x'],
  ['JSON with UTF-16 charset', 'application/json; charset=utf-16'],
  ['vendor +json', 'application/vnd.api+json'],
  ['upper-case JSON', 'APPLICATION/JSON'],
  ['garbage', ';;;==='],
  ['very long', `application/json; x=${'y'.repeat(LONG_QUERY)}`],
].map(([name, type]): Case => ({
  name: `content-type ${name}`,
  rawBody: '{"name":"Content Type","candidate_id":"' + randomUUID() + '","stage":"placed"}',
  headers: type === undefined ? {} : { 'Content-Type': type as string },
}));

const HEADER_CASES: Case[] = [
  ['huge Authorization', { Authorization: `Bearer ${'x'.repeat(LONG_QUERY)}` }],
  ['Authorization with NUL-ish escape', { Authorization: 'Bearer tps_%00' }],
  ['non-ASCII Authorization', { Authorization: 'Bearer tps_\u00e9\u00e9' }],
  ['X-Forwarded-For spoof', { 'X-Forwarded-For': '127.0.0.1, 10.0.0.1' }],
  ['Host-ish headers', { 'X-Forwarded-Host': 'evil.example', 'X-Original-URL': '/api/v1/admin' }],
  ['method override', { 'X-HTTP-Method-Override': 'DELETE' }],
].map(([name, headers]) => ({ name: `header ${name as string}`, headers: headers as Record<string, string> }));

/** The session cookie replaced by something hostile (session routes then answer 401). */
const COOKIE_CASES: Case[] = [
  ['huge session cookie', `__Host-tp_session=${'x'.repeat(LONG_QUERY)}`],
  ['many cookies', Array.from({ length: 300 }, (_, i) => `c${i}=${i}`).join('; ')],
  ['empty cookie pairs', ';;; ; ;'],
  ['cookie without a name', '=abc'],
  ['cookie without a value', '__Host-tp_session'],
  ['quoted session cookie', '__Host-tp_session="abc"'],
  ['percent-escaped session cookie', '__Host-tp_session=%00%2F%E0%A4%A'],
  ['session cookie of 43 dots', `__Host-tp_session=${'.'.repeat(43)}`],
  ['__proto__ cookie', '__proto__=1; constructor=2; toString=3'],
  ['duplicated session cookie, first one garbage', `__Host-tp_session=nope; __Host-tp_session=${'A'.repeat(43)}`],
].map(([name, value]) => ({ name: `cookie ${name}`, headers: { Cookie: value as string } }));

/** Hostile values for a path parameter; `{}` in the template is replaced by them as they are. */
const PATH_CASES: Case[] = [
  ['not a uuid', 'not-a-uuid'],
  ['upper-case uuid', randomUUID().toUpperCase()],
  ['nil uuid', '00000000-0000-0000-0000-000000000000'],
  ['max uuid', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
  ['uuid without dashes', randomUUID().replaceAll('-', '')],
  ['uuid with a trailing NUL', `${randomUUID()}%00`],
  ['uuid with a trailing space', `${randomUUID()}%20`],
  ['NUL', '%00'],
  ['encoded slash', 'a%2Fb'],
  ['encoded dot-dot', '%2e%2e'],
  ['double-encoded dot', '%252e%252e'],
  ['malformed percent escape', '%E0%A4%A'],
  ['lone percent', '%'],
  ['very long', 'f'.repeat(LONG_QUERY)],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['toString', 'toString'],
  ['star', '*'],
  ['SQL-ish', "1'%20OR%20'1'='1"],
  ['key-like', 'T%23other-tenant'],
  ['emoji', '%F0%9F%98%80'],
  ['semicolon params', `${randomUUID()};x=1`],
].map(([name, pathId]) => ({ name: `path ${name}`, pathId }));

/** Login bodies of the right shape with hostile values; every email is a decoy. */
const LOGIN_BODY_CASES: Case[] = [
  ['unknown email', { email: `nobody@${DECOY_DOMAIN}`, password: PASSWORD }],
  ['NUL in email', { email: `a\u0000b@${DECOY_DOMAIN}`, password: 'x' }],
  ['unicode email', { email: `zoë.李@${DECOY_DOMAIN}`, password: 'x' }],
  ['key-like email', { email: `EMAIL#x@${DECOY_DOMAIN}`, password: 'x' }],
  ['expression-ish email', { email: `#pk = :pk@${DECOY_DOMAIN}`, password: 'x' }],
  ['__proto__ email', { email: `__proto__@${DECOY_DOMAIN}`, password: 'x' }],
  ['padded, upper-case email', { email: `  SHOUT@${DECOY_DOMAIN.toUpperCase()}  `, password: 'x' }],
  ['password at the length limit', { email: `long@${DECOY_DOMAIN}`, password: 'p'.repeat(256) }],
  ['password over the length limit', { email: `long@${DECOY_DOMAIN}`, password: 'p'.repeat(257) }],
  ['huge password', { email: `huge@${DECOY_DOMAIN}`, password: 'p'.repeat(100_000) }],
  ['huge email', { email: `${'e'.repeat(100_000)}@${DECOY_DOMAIN}`, password: 'x' }],
  ['empty password', { email: `empty@${DECOY_DOMAIN}`, password: '' }],
  ['whitespace email', { email: '   ', password: 'x' }],
  ['unicode password', { email: `uni@${DECOY_DOMAIN}`, password: 'pässwörd 😀 \u202E\u0000' }],
  ['password as a number', { email: `num@${DECOY_DOMAIN}`, password: 12345678 }],
  ['password as an object', { email: `obj@${DECOY_DOMAIN}`, password: { toString: 'x' } }],
  ['email as an array', { email: [`arr@${DECOY_DOMAIN}`], password: 'x' }],
  ['extra field', { email: `extra@${DECOY_DOMAIN}`, password: 'x', role: 'admin' }],
  ['tenant field', { email: `tenant@${DECOY_DOMAIN}`, password: 'x', tenant_id: randomUUID() }],
].map(([name, body]) => ({ name: `login body ${name}`, rawBody: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }));
const LONE_SURROGATE_LOGIN: Case = {
  name: 'login body lone surrogate in password',
  rawBody: `{"email":"surrogate@${DECOY_DOMAIN}","password":"\\ud800"}`,
  headers: { 'Content-Type': 'application/json' },
};

/** Token bodies of the right shape with hostile values. */
const TOKEN_BODY_CASES: Case[] = [
  ['duplicate scopes', { name: 'dup', scopes: ['pipeline:read', 'pipeline:read'] }],
  ['every scope', { name: 'all', scopes: ['candidates:read', 'candidates:write', 'requisitions:read', 'pipeline:read', 'pipeline:write', '*'] }],
  ['too many scopes', { name: 'many', scopes: Array.from({ length: 50 }, () => 'pipeline:read') }],
  ['unknown scope', { name: 'x', scopes: ['admin'] }],
  ['__proto__ scope', { name: 'x', scopes: ['__proto__'] }],
  ['empty scopes', { name: 'x', scopes: [] }],
  ['scopes as a string', { name: 'x', scopes: '*' }],
  ['scopes as an object', { name: 'x', scopes: { 0: '*' } }],
  ['nested scopes', { name: 'x', scopes: [['*']] }],
  ['huge name', { name: 'n'.repeat(100_000), scopes: ['pipeline:read'] }],
  ['control characters in name', { name: '\u0001\u001b[31m', scopes: ['pipeline:read'] }],
  ['tenant field', { name: 'x', scopes: ['pipeline:read'], tenant_id: randomUUID() }],
].map(([name, body]) => ({ name: `token body ${name}`, rawBody: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }));

const casesFor = (r: Route): Case[] => [
  ...QUERY_CASES,
  ...HEADER_CASES,
  ...COOKIE_CASES,
  ...(r.body ? [...BODY_CASES, ...CONTENT_TYPE_CASES] : []),
  ...(r.path === '/api/session' && r.body ? [...LOGIN_BODY_CASES, LONE_SURROGATE_LOGIN] : []),
  ...(r.path === '/api/tokens' && r.body ? TOKEN_BODY_CASES : []),
  ...(r.params ? PATH_CASES : []),
];

/** `{ error, code, field? }`: a sentence, a code from ERROR_CODES, and nothing else. */
const isErrorBody = (body: unknown): boolean =>
  !!body && typeof body === 'object' && !Array.isArray(body) &&
  Object.keys(body).every((k) => ['error', 'code', 'field'].includes(k)) && typeof (body as { error?: unknown }).error === 'string' &&
  (body as { error: string }).error.length > 0 && (ERROR_CODES as readonly unknown[]).includes((body as { code?: unknown }).code);

async function send(r: Route, c: Case) {
  const path = r.path.replace(/\{[^}]+\}/g, c.pathId ?? randomUUID()) + (c.query !== undefined ? `?${c.query}` : '');
  // Header and cookie cases bring their own Authorization or Cookie, which replaces the
  // route's credential of that kind; the other kind is still sent.
  const headers = { ...(await credentialsFor(r)), ...(c.headers ?? {}) };
  // A route without a body still gets a JSON body for POST, so the request is otherwise valid.
  const rawBody = c.rawBody ?? (r.method === 'GET' ? undefined : JSON.stringify(validBody(r)));
  if (rawBody !== undefined && !c.rawBody && !('Content-Type' in headers)) headers['Content-Type'] = 'application/json';
  return stack.call(r.method, path, { rawBody, headers });
}

/** A body the route accepts, for cases that only mangle the query, headers or path. */
function validBody(r: Route): unknown {
  if (r.path === '/api/settings/pipeline') return { stuck_days: { applied: 4 } };
  // A taken email: the handler refuses it (409) before hashing a temporary password, which costs
  // 128 MiB of scrypt each; dozens at once would queue past the handler timeout in one process.
  if (r.path === '/api/members') return { email: sessionUser.email, role: 'member' };
  if (r.path === '/api/members/{id}') return { role: 'member' };
  // A wrong current password: the handler checks it (cheap for cheapUser) and changes nothing.
  if (r.path === '/api/session/password') return { current_password: `not ${PASSWORD}`, new_password: 'a brand new long password' };
  if (r.path.endsWith('/candidates') || r.path === '/api/v1/candidates/{id}') return { name: 'Valid Body' };
  if (r.path.endsWith('/pipeline')) return { candidate_id: randomUUID(), stage: 'placed' };
  if (r.path === '/api/session') return { email: loginUser.email, password: PASSWORD };
  if (r.path === '/api/tokens') return { name: 'Valid Body', scopes: ['pipeline:read'] };
  if (r.path === '/api/webhooks') return { url: 'https://hooks.example.com/sweep' };
  if (r.path === '/api/webhooks/{id}') return { active: false };
  if (r.path === '/api/webhooks/{id}/resend') return { event_id: `evt_${'0'.repeat(32)}` };
  if (r.path === '/api/webhooks/{id}/replay') return { since: new Date(Date.now() - 3_600_000).toISOString() };
  return {};
}

describe('hostile input sweep', () => {
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();

  for (const r of ROUTES) {
    it(`${label(r)}: never 5xx, every refusal is exactly { error, code, field? }`, async () => {
      const cases = casesFor(r);
      expect(cases.length).toBeGreaterThan(30);
      const baseline = await send(r, { name: 'baseline' });
      // A plain valid request reaches the handler: it succeeds, or the handler (not the
      // gateway) says that the random id it names is not found.
      const hint = `${label(r)}: a plain valid request must reach its handler (a new route needs its body in validBody()): ${baseline.text.slice(0, 200)}`;
      if (baseline.status === 404) expect(baseline.body, hint).not.toEqual({ error: GATEWAY_ERRORS.notFound.error, code: 'not_found' });
      if (r.path === '/api/session/password') expect([baseline.status, baseline.body], hint).toEqual([400, { error: 'current_password is incorrect', code: 'invalid_field', field: 'current_password' }]);
      else if (label(r) === 'POST /api/members') expect([baseline.status, baseline.body], hint).toEqual([409, { error: `a user with email ${sessionUser.email} already exists`, code: 'conflict', field: 'email' }]);
      else expect([r.status, 404], hint).toContain(baseline.status);
      // Login counts every attempt in flight towards the lockout (so parallel guesses cannot
      // slip past it); valid logins are therefore sent one at a time.
      const results: (readonly [Case, Awaited<ReturnType<typeof send>>])[] = [];
      if (r.path === '/api/session') for (const c of cases) results.push([c, await send(r, c)] as const);
      else results.push(...(await Promise.all(cases.map(async (c) => [c, await send(r, c)] as const))));
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      for (const [c, res] of results) {
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${c.name}: ${res.status} ${res.text.slice(0, 200)}`);
        else if ((res.status < 200 || res.status >= 300) && !isErrorBody(res.body)) {
          failures.push(`${c.name}: ${res.status} body is not { error: string }: ${res.text.slice(0, 200)}`);
        }
        // Without a query schema the query string is ignored: the answer is the baseline's.
        if (!r.query && c.query !== undefined && res.status !== baseline.status) {
          failures.push(`${c.name}: ${res.status}, not ${baseline.status} as without a query: ${res.text.slice(0, 200)}`);
        }
      }
      expect(failures).toEqual([]);
      // The sweep reached the handler: it did not stop at the gateway for every case. A route
      // with a query, body or path schema refuses some input with 400; one without any has
      // nothing to refuse and answers.
      if (r.query || r.body || r.params) expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
      else expect(results.filter(([, res]) => res.status === r.status).length).toBeGreaterThan(0);
    });
  }

  it('the shared session survived the sweep: not logged out, its account not locked', async () => {
    const res = await stack.call('GET', '/api/session', { headers: { Cookie: cookie } });
    expect([res.status, res.body?.data?.user?.email]).toEqual([200, sessionUser.email]);
    const again = await stack.call('POST', '/api/session', { body: { email: sessionUser.email, password: PASSWORD } });
    expect(again.status).toBe(200);
  });

  it('Object.prototype is not polluted by any of it', () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore);
    const probe = {} as Record<string, unknown>;
    expect(probe.x).toBeUndefined();
    expect(probe.polluted).toBeUndefined();
  });
});

describe('specific expectations', () => {
  const create = (rawBody: string) =>
    stack.call('POST', '/api/v1/candidates', { token, rawBody, headers: { 'Content-Type': 'application/json' } });

  it.each([
    ['{"__proto__":{"x":1}}', /unknown body field "__proto__"|name is required/],
    ['{"name":"x","__proto__":{"stage":"placed"}}', /unknown body field "__proto__"/],
    ['{"name":"x","constructor":{"prototype":{"x":1}}}', /unknown body field "constructor"/],
    ['{"name":"x","toString":"y"}', /unknown body field "toString"/],
  ])('prototype-ish keys are refused as unknown fields: %s', async (raw, message) => {
    const res = await create(raw);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it.each(['null', '0', 'true', '"name"', '[]', '[{"name":"x"}]'])('a non-object JSON body %s -> 400 "body must be a JSON object"', async (raw) => {
    const res = await create(raw);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'body must be a JSON object', code: 'invalid_request' });
  });

  it('a deeply nested body is refused with 400, not a crash', async () => {
    for (const raw of [nestedArray(100_000), nested(10_000), `{"name":${nested(5_000)}}`]) {
      const res = await create(raw);
      expect(res.status).toBe(400);
      expect(isErrorBody(res.body)).toBe(true);
    }
  });

  it('a 100k-character name is refused by length', async () => {
    const res = await create(JSON.stringify({ name: HUGE }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'name must be at most 200 characters', code: 'invalid_field', field: 'name' });
  });

  it('unicode names round-trip unchanged', async () => {
    const name = 'Zoë 李小龍 😀 Ωmega';
    const res = await create(JSON.stringify({ name }));
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe(name);
  });

  it('an empty limit is refused; repeated parameters are refused', async () => {
    const empty = await stack.call('GET', '/api/v1/candidates?limit=', { token });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/limit must be an integer between 1 and 200/);
    const repeated = await stack.call('GET', '/api/v1/requisitions?status=open&status=open', { token });
    expect(repeated.status).toBe(400);
    expect(repeated.body).toEqual({ error: 'status must be given at most once', code: 'invalid_field', field: 'status' });
  });

  it('a NUL in a query value is refused, not passed on', async () => {
    const res = await stack.call('GET', '/api/v1/candidates?stage=applied%00', { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/stage must be one of/);
  });

  it('GET /pipeline takes no query parameters at all', async () => {
    const res = await stack.call('GET', '/api/v1/pipeline?limit=5', { token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'unknown query field "limit"', code: 'invalid_field', field: 'limit' });
  });

  it('routes without a query schema ignore the query string: the OpenAPI document and the session', async () => {
    const plain = await stack.call('GET', '/api/v1/openapi.json');
    const queried = await stack.call('GET', '/api/v1/openapi.json?limit=5&stage=%00&__proto__=x');
    expect([plain.status, queried.status]).toEqual([200, 200]);
    expect(queried.body).toEqual(plain.body);
    const session = await stack.call('GET', '/api/session?user=other&tenant_id=x', { headers: { Cookie: cookie } });
    expect([session.status, session.body?.data?.user?.email]).toEqual([200, sessionUser.email]);
  });

  it.each([
    ['not-a-uuid', 'id must be a UUID'],
    ['%00', 'id must be a UUID'],
    ['a%2Fb', 'id must be a UUID'],
    ['__proto__', 'id must be a UUID'],
    [`${randomUUID()}%20`, 'id must be a UUID'],
  ])('DELETE /api/tokens/%s -> 400 %s', async (id, error) => {
    const res = await stack.call('DELETE', `/api/tokens/${id}`, { headers: { Cookie: cookie } });
    expect([res.status, res.body]).toEqual([400, { error, code: 'invalid_field', field: 'id' }]);
  });

  it('DELETE /api/tokens/{id} with a well-formed id of no token -> 404 from the handler', async () => {
    for (const id of [randomUUID(), randomUUID().toUpperCase(), '00000000-0000-0000-0000-000000000000']) {
      const res = await stack.call('DELETE', `/api/tokens/${id}`, { headers: { Cookie: cookie } });
      expect([res.status, res.body], id).toEqual([404, { error: 'token not found', code: 'not_found' }]);
    }
  });

  it.each(['null', '0', 'true', '"x"', '[]'])('a non-object JSON login body %s -> 400 "body must be a JSON object"', async (raw) => {
    const res = await stack.call('POST', '/api/session', { rawBody: raw, headers: { 'Content-Type': 'application/json' } });
    expect([res.status, res.body]).toEqual([400, { error: 'body must be a JSON object', code: 'invalid_request' }]);
  });

  it('a login body with an unknown field is refused before any password check', async () => {
    const res = await stack.call('POST', '/api/session', { body: { email: `x@${DECOY_DOMAIN}`, password: 'x', role: 'admin' } });
    expect([res.status, res.body]).toEqual([400, { error: 'unknown body field "role"', code: 'invalid_field', field: 'role' }]);
  });
});

describe('query parameters named like Object.prototype members', () => {
  const NAMES = ['constructor', 'toString', '__proto__'];

  // Regression: infra/local/events.ts proxyEvent once did `(multiQuery[k] ??= []).push(v)` on a
  // plain object, which finds Object.prototype.constructor / .toString (and Object.prototype
  // itself for __proto__), so `.push` was not a function and the request was never answered.
  // Every route gets the credentials it needs, so the request reaches its handler.
  it('the local gateway answers ?constructor=x, ?toString=x, ?__proto__=x on every route, below 500', async () => {
    const attempts = ROUTES.flatMap((r) =>
      NAMES.map(async (name) => {
        const what = `${label(r)}?${name}=x`;
        const body = r.method === 'GET' ? undefined : JSON.stringify(validBody(r));
        const limitMs = 1_500;
        try {
          const res = await fetch(`${stack.url}${r.path.replace(/\{[^}]+\}/g, randomUUID())}?${name}=x`, {
            method: r.method,
            headers: { ...(await credentialsFor(r)), ...(body && { 'Content-Type': 'application/json' }) },
            body,
            signal: AbortSignal.timeout(limitMs),
          });
          const text = await res.text();
          if (res.status >= 500) return `${what}: ${res.status} ${text}`;
          if (res.status >= 300 && !isErrorBody(JSON.parse(text))) return `${what}: ${res.status} body ${text}`;
          // Credentials were right: nothing may stop at the authorizer.
          if (res.status === 401 || res.status === 403) return `${what}: ${res.status} ${text}`;
          return undefined;
        } catch (err) {
          return `${what}: no answer within ${limitMs / 1000} s (${(err as Error).name})`;
        }
      }),
    );
    expect((await Promise.all(attempts)).filter(Boolean)).toEqual([]);
  });

  it('the handlers (as deployed behind API Gateway) refuse them on GET routes with a query schema with 400 unknown query field, and the others ignore them', async () => {
    const { lambdaContext, proxyEvent } = await import('../../infra/local/events');
    const other = await stack.tenant();
    const user = await other.user('admin');
    // What each authorizer puts in the context (functions/authorizer.ts, session-authorizer.ts).
    const contextFor = (r: Route) =>
      r.auth === 'token'
        ? { tenantId: other.id, tenantSlug: other.slug, scopes: '*', principalId: 'test' }
        : r.auth === 'session'
          ? { tenantId: other.id, tenantSlug: other.slug, userId: user.id, email: user.email, role: 'admin', principalId: user.id }
          : undefined;
    const getRoutes = ROUTES.filter((x) => x.method === 'GET');
    expect(getRoutes.some((r) => r.query)).toBe(true);
    expect(getRoutes.some((r) => !r.query)).toBe(true);
    for (const r of getRoutes) {
      const { handler } = (await import(`../../functions/${r.handler}.ts`)) as {
        handler: (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }>;
      };
      const pathParameters = Object.fromEntries([...r.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, randomUUID()]));
      const path = r.path.replace(/\{(\w+)\}/g, (_, name: string) => pathParameters[name]!);
      for (const name of NAMES) {
        const event = proxyEvent({
          method: r.method, path, resource: r.path, pathParameters, headers: {},
          search: new URLSearchParams(), body: null, sourceIp: '127.0.0.1',
          authorizer: contextFor(r),
        });
        // What the Lambda runtime hands over: the event is parsed JSON, so these are own keys.
        const parsed = JSON.parse(
          JSON.stringify(event).replace('"queryStringParameters":null', `"queryStringParameters":{"${name}":"x"}`)
            .replace('"multiValueQueryStringParameters":null', `"multiValueQueryStringParameters":{"${name}":["x"]}`),
        );
        expect(Object.keys(parsed.queryStringParameters)).toEqual([name]);
        const res = await handler(parsed, lambdaContext(r.handler));
        if (r.query) {
          expect([res.statusCode, JSON.parse(res.body)], `${label(r)}?${name}=x`).toEqual([400, { error: `unknown query field "${name}"`, code: 'invalid_field', field: name }]);
        } else if (r.params) {
          // No query schema: the query string is not read at all; the random id is not found.
          expect([res.statusCode, JSON.parse(res.body).error], `${label(r)}?${name}=x: ${res.body}`).toEqual([404, expect.stringMatching(/not found$/)]);
        } else {
          // No query schema: the query string is not read at all.
          expect(res.statusCode, `${label(r)}?${name}=x: ${res.body}`).toBe(r.status);
          expect(Object.keys(JSON.parse(res.body)), `${label(r)}?${name}=x`).not.toContain('error');
        }
      }
    }
  });
});
