/**
 * What the two authorizers take as credentials, decided before any table read: the Bearer token
 * of an Authorization header (lib/auth/token.ts bearerToken, isWellFormedToken) and the session id
 * of a Cookie header (lib/auth/session.ts sessionIdFrom). The route plays no part in it: each
 * authorizer refuses these headers alike on every route of its kind. Through the local gateway,
 * test/integration/auth/tokens.test.ts and sessions.test.ts send each case on a few routes, and the
 * ones the table decides (an unknown token, an unknown session id) on every route.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { proxyEvent, requestAuthorizerEvent, methodArn, tokenAuthorizerEvent } from '../../dev/events';
import { authorizer } from '../../lib/auth/authorizer';
import { SESSION_COOKIE, sessionDigest, sessionIdFrom } from '../../lib/auth/session';
import { sessionAuthorizer } from '../../lib/auth/session-authorizer';
import { bearerToken, generateToken, isWellFormedToken, tokenDigest } from '../../lib/auth/token';
import { routes } from '../../lib/routes';

const token = generateToken();
const sessionId = randomBytes(32).toString('base64url');
const cookie = `${SESSION_COOKIE}=${sessionId}`;
/** Keeps the checksum's length and alphabet, changes its last character. */
const brokenChecksum = (t: string) => t.slice(0, -1) + (t.endsWith('A') ? 'B' : 'A');

/** Authorization headers the token authorizer refuses without reading the table. */
const REFUSED_AUTHORIZATION: Array<[string, string | undefined]> = [
  ['no Authorization header', undefined],
  ['an empty Authorization header', ''],
  ['Basic credentials', 'Basic dXNlcjpwYXNzd29yZA=='],
  ['Bearer with no token', 'Bearer'],
  ['Bearer and a space', 'Bearer '],
  ['Bearer and two spaces', 'Bearer  '],
  ['a token with a broken checksum', `Bearer ${brokenChecksum(token)}`],
  ['a truncated token', `Bearer ${token.slice(0, -1)}`],
  ['the token digest instead of the token', `Bearer ${tokenDigest(token)}`],
  ['a tab after Bearer', `Bearer\t${token}`],
  ['no space after Bearer', `Bearer${token}`],
  ['a misspelt scheme', `Bearr ${token}`],
  ['the token without a scheme', token],
  ['the token followed by more text', `Bearer ${token} extra`],
  ['the token followed by a space and more text', `bearer  ${token} extra`],
  ['two tokens', `Bearer ${token}, Bearer ${token}`],
  ['Token scheme', `Token ${token}`],
  ['the session id as a Bearer token', `Bearer ${sessionId}`],
];

/** Spellings of the scheme that RFC 7235 allows. */
const SPELLINGS: Array<[string, string]> = [
  ['lower-case "bearer"', `bearer ${token}`],
  ['upper-case "BEARER"', `BEARER ${token}`],
  ['mixed-case "bEaReR"', `bEaReR ${token}`],
  ['two spaces after Bearer', `Bearer  ${token}`],
  ['three spaces after lower-case bearer', `bearer   ${token}`],
];

/** Cookie headers the session authorizer refuses without reading the table. */
const REFUSED_COOKIE: Array<[string, string | undefined]> = [
  ['no cookie', undefined],
  ['an empty Cookie header', ''],
  ['a valid API token as the session cookie', `${SESSION_COOKIE}=${token}`],
  ['only other cookies', 'theme=dark; lang=en'],
  ['the session id under a name without the __Host- prefix', `tp_session=${sessionId}`],
  ['the session id under a differently cased name', `__host-tp_session=${sessionId}`],
  ['the session cookie with an empty value', `${SESSION_COOKIE}=`],
  ['a truncated session id', cookie.slice(0, -1)],
  ['the session id with an extra character', `${cookie}A`],
  ['the session id in quotes', `${SESSION_COOKIE}="${sessionId}"`],
  ['the digest of the session id instead of the id', `${SESSION_COOKIE}=${sessionDigest(sessionId)}`],
];

const TOKEN_ROUTES = routes.filter((r) => r.auth === 'token');
const SESSION_ROUTES = routes.filter((r) => r.auth === 'session');
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'probe');

describe('bearerToken and isWellFormedToken', () => {
  it.each(REFUSED_AUTHORIZATION)('%s: no well-formed token', (_name, header) => {
    const credentials = bearerToken(header);
    expect(credentials !== undefined && isWellFormedToken(credentials)).toBe(false);
  });

  it.each(SPELLINGS)('%s: the token', (_name, header) => {
    expect(bearerToken(header)).toBe(token);
  });

  it('an unknown, well-formed token is a token: only the table can refuse it', () => {
    const unknown = generateToken();
    expect(bearerToken(`Bearer ${unknown}`)).toBe(unknown);
    expect(isWellFormedToken(unknown)).toBe(true);
  });
});

describe('the token authorizer refuses each of them on every token route, before any read', () => {
  it.each(REFUSED_AUTHORIZATION)('%s', async (_name, header) => {
    for (const r of TOKEN_ROUTES) {
      // The table this tier names does not exist: a read would fail with another error.
      await expect(authorizer(tokenAuthorizerEvent(header as string, r.method, concrete(r.path))), `${r.method} ${r.path}`).rejects.toThrow(
        /^Unauthorized$/,
      );
    }
  });
});

describe('sessionIdFrom', () => {
  it.each(REFUSED_COOKIE)('%s: no session id', (_name, header) => {
    expect(sessionIdFrom(header)).toBeUndefined();
  });

  it('finds the session id among other cookies, and an unknown, well-formed one too: only the table can refuse it', () => {
    expect(sessionIdFrom(`theme=dark; ${cookie}; lang=en`)).toBe(sessionId);
    const unknown = randomBytes(32).toString('base64url');
    expect(sessionIdFrom(`${SESSION_COOKIE}=${unknown}`)).toBe(unknown);
  });
});

describe('the session authorizer refuses each of them on every session route, before any read', () => {
  it.each(REFUSED_COOKIE)('%s', async (_name, header) => {
    for (const r of SESSION_ROUTES) {
      const path = concrete(r.path);
      const event = proxyEvent({
        method: r.method,
        path,
        resource: r.path,
        pathParameters: {},
        // An API token beside it changes nothing: the session authorizer reads only the cookie.
        headers: { ...(header !== undefined && { cookie: header }), authorization: `Bearer ${token}` },
        search: new URLSearchParams(),
        body: null,
        sourceIp: '127.0.0.1',
      });
      await expect(sessionAuthorizer(requestAuthorizerEvent(event, methodArn(r.method, path))), `${r.method} ${r.path}`).rejects.toThrow(
        /^Unauthorized$/,
      );
    }
  });
});
