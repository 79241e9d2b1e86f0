/**
 * The hostile inputs of the malformed-input tests (test/integration/malformed/*.test.ts): query
 * strings, bodies, content types, headers, cookies, path values, login and token bodies, and
 * `casesFor`, which picks the ones each route of the table gets. Data only, no stack.
 */
import { randomUUID } from 'node:crypto';
import type { Route } from '../../../lib/routes';
import { PASSWORD } from '../../helpers/stack';

/** Hostile login bodies use only emails of this domain: no account, so no lockout of a real one. */
export const DECOY_DOMAIN = `decoy-${randomUUID().slice(0, 8)}.example`;

export const HUGE = 'x'.repeat(100_000);
export const LONG_QUERY = 8_000; // Node's default header limit is 16 KiB; API Gateway's URL limit is ~10 KiB.
export const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
export const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

export interface Case {
  name: string;
  query?: string;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Value for the path parameters, sent as is (already percent-encoded where needed). */
  pathId?: string;
}

export const QUERY_CASES: Case[] = [
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

export const BODY_CASES: Case[] = [
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
  ['__proto__ next to valid fields', `{"name":"x","candidate_id":"${randomUUID()}","stage":"placed","__proto__":{"polluted":1}}`],
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
  [
    'nil uuid',
    '{"name":"x","req_id":"00000000-0000-0000-0000-000000000000","candidate_id":"00000000-0000-0000-0000-000000000000","stage":"placed"}',
  ],
  [
    'max uuid',
    '{"name":"x","req_id":"ffffffff-ffff-ffff-ffff-ffffffffffff","candidate_id":"ffffffff-ffff-ffff-ffff-ffffffffffff","stage":"placed"}',
  ],
  ['javascript: URL', '{"name":"x","resume_url":"javascript:alert(1)"}'],
  ['data: URL', '{"name":"x","resume_url":"data:text/html,<script>alert(1)</script>"}'],
  ['HTML in name', '{"name":"<script>alert(1)</script>"}'],
  ['DynamoDB expression in name', '{"name":"#pk = :pk OR attribute_exists(PK)"}'],
  ['key-like name', `{"name":"T#other-tenant","req_id":"${randomUUID()}"}`],
].map(([name, rawBody]) => ({ name: `body ${name}`, rawBody, headers: { 'Content-Type': 'application/json' } }));

export const CONTENT_TYPE_CASES: Case[] = [
  ['none set (fetch sends text/plain)', undefined],
  ['text/plain', 'text/plain'],
  ['form', 'application/x-www-form-urlencoded'],
  ['multipart', 'multipart/form-data; boundary=x'],
  ['JSON with UTF-16 charset', 'application/json; charset=utf-16'],
  ['vendor +json', 'application/vnd.api+json'],
  ['upper-case JSON', 'APPLICATION/JSON'],
  ['garbage', ';;;==='],
  ['very long', `application/json; x=${'y'.repeat(LONG_QUERY)}`],
].map(
  ([name, type]): Case => ({
    name: `content-type ${name}`,
    rawBody: `{"name":"Content Type","candidate_id":"${randomUUID()}","stage":"placed"}`,
    headers: type === undefined ? {} : { 'Content-Type': type as string },
  }),
);

export const HEADER_CASES: Case[] = [
  ['huge Authorization', { Authorization: `Bearer ${'x'.repeat(LONG_QUERY)}` }],
  ['Authorization with NUL-ish escape', { Authorization: 'Bearer tps_%00' }],
  ['non-ASCII Authorization', { Authorization: 'Bearer tps_\u00e9\u00e9' }],
  ['X-Forwarded-For spoof', { 'X-Forwarded-For': '127.0.0.1, 10.0.0.1' }],
  ['Host-ish headers', { 'X-Forwarded-Host': 'evil.example', 'X-Original-URL': '/api/v1/admin' }],
  ['method override', { 'X-HTTP-Method-Override': 'DELETE' }],
].map(([name, headers]) => ({ name: `header ${name as string}`, headers: headers as Record<string, string> }));

/** The session cookie replaced by something hostile (session routes then answer 401). */
export const COOKIE_CASES: Case[] = [
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
export const PATH_CASES: Case[] = [
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
export const LOGIN_BODY_CASES: Case[] = [
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
export const LONE_SURROGATE_LOGIN: Case = {
  name: 'login body lone surrogate in password',
  rawBody: `{"email":"surrogate@${DECOY_DOMAIN}","password":"\\ud800"}`,
  headers: { 'Content-Type': 'application/json' },
};

/** Token bodies of the right shape with hostile values. */
export const TOKEN_BODY_CASES: Case[] = [
  ['duplicate scopes', { name: 'dup', scopes: ['pipeline:read', 'pipeline:read'] }],
  [
    'every scope',
    { name: 'all', scopes: ['candidates:read', 'candidates:write', 'requisitions:read', 'pipeline:read', 'pipeline:write', '*'] },
  ],
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
  ['unknown kind', { name: 'x', scopes: ['pipeline:read'], kind: 'team' }],
  ['kind as an array', { name: 'x', scopes: ['pipeline:read'], kind: ['workspace'] }],
  ['expires_at not a date', { name: 'x', scopes: ['pipeline:read'], expires_at: 'soon' }],
  ['expires_at as a number', { name: 'x', scopes: ['pipeline:read'], expires_at: 1_900_000_000 }],
  ['expires_at in the past', { name: 'x', scopes: ['pipeline:read'], expires_at: '2001-01-01T00:00:00Z' }],
  ['expires_at too far', { name: 'x', scopes: ['pipeline:read'], expires_at: '2999-01-01T00:00:00Z' }],
].map(([name, body]) => ({ name: `token body ${name}`, rawBody: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }));

export const casesFor = (r: Route): Case[] => [
  ...QUERY_CASES,
  ...HEADER_CASES,
  ...COOKIE_CASES,
  ...(r.body ? [...BODY_CASES, ...CONTENT_TYPE_CASES] : []),
  ...(r.path === '/api/session' && r.body ? [...LOGIN_BODY_CASES, LONE_SURROGATE_LOGIN] : []),
  ...(r.path === '/api/tokens' && r.body ? TOKEN_BODY_CASES : []),
  // Outside /api (the careers pages) an encoded `..` is resolved by the URL before it is sent, and
  // the request is for the console's page, not for this route: the pages' own tests cover it.
  ...(r.params ? PATH_CASES.filter((c) => r.path.startsWith('/api/') || c.name !== 'path encoded dot-dot') : []),
];

/** Query parameters named like Object.prototype members: each its own case, on every route. */
export const PROTOTYPE_QUERY_CASES: Case[] = ['constructor', 'toString', '__proto__'].map((name) => ({
  name: `?${name}=x`,
  query: `${name}=x`,
}));

const named = (cases: readonly Case[], ...names: string[]): Case[] =>
  names.map((name) => {
    const c = cases.find((x) => x.name === name);
    if (!c) throw new Error(`no case named ${name}`);
    return c;
  });

/**
 * A route without a query schema never reads its query string (lib/http.ts parses one only when
 * the line has a schema). One request carries what a reading route would refuse (the three
 * prototype names, unknown to every schema, and a repeated parameter): the answer must be the
 * baseline's. Each such request runs the handler to its table reads, so one per route.
 */
export const IGNORED_QUERY_CASE: Case = {
  name: '?constructor, toString, __proto__ and a repeated limit',
  query: 'constructor=x&toString=x&__proto__=x&limit=1&limit=2',
};

/**
 * What every route gets through the gateway besides its baseline: one case of each kind that its
 * request has, enough to show that the route sits behind the same gateway, authorizer, body
 * parser and error boundary as the routes that get the whole matrix.
 */
export const gatewaySampleFor = (r: Route): Case[] => [
  // The header case changes no answer, so it rides along with the query case.
  ...named(QUERY_CASES, '?bracketed name').map((c) => ({
    ...c,
    name: `${c.name}, Host-ish headers`,
    headers: named(HEADER_CASES, 'header Host-ish headers')[0]!.headers,
  })),
  // Only the session authorizer reads the cookie.
  ...(r.auth === 'session' ? named(COOKIE_CASES, 'cookie percent-escaped session cookie') : []),
  ...(r.body ? [...named(BODY_CASES, 'body truncated JSON'), ...named(CONTENT_TYPE_CASES, 'content-type text/plain')] : []),
  ...(r.params ? named(PATH_CASES, 'path not a uuid') : []),
];

/**
 * The cases that exercise a route's own schemas (query, body, path) and its handler: sent
 * in-process, as the gateway would hand them over. Headers and cookies are left out: they meet
 * the gateway and the authorizers, not the route's schemas.
 */
export const ownCasesFor = (r: Route): Case[] => [
  ...(r.query ? [...QUERY_CASES, ...PROTOTYPE_QUERY_CASES] : [IGNORED_QUERY_CASE]),
  ...(r.body ? [...BODY_CASES, ...CONTENT_TYPE_CASES] : []),
  ...(r.path === '/api/session' && r.body ? [...LOGIN_BODY_CASES, LONE_SURROGATE_LOGIN] : []),
  ...(r.path === '/api/tokens' && r.body ? TOKEN_BODY_CASES : []),
  ...(r.params ? PATH_CASES.filter((c) => r.path.startsWith('/api/') || c.name !== 'path encoded dot-dot') : []),
];
