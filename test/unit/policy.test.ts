/**
 * The TOKEN authorizer's IAM policy and the evaluator the local gateway uses, checked against
 * the route table itself so that a new route is covered without editing this file.
 * No I/O and no environment: lib/auth/policy -> lib/routes -> lib/schemas only.
 */
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { apiArnBase, isAllowed, policyFor, routeArn, sessionRoutes, tokenRoutes } from '../../lib/auth/policy';
import { SCOPES } from '../../lib/model';
import { allows, matchPath, routes, type Route } from '../../lib/routes';

type Policy = APIGatewayAuthorizerResult['policyDocument'];

const ROUTES: readonly Route[] = routes;
const TOKEN_ROUTES = ROUTES.filter((r) => r.auth === 'token');
const NAMED_SCOPES = SCOPES.filter((s) => s !== '*');

const BASE = 'arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5/prod';
/** The ARN API Gateway builds for a concrete request (path parameters filled in). */
const requestArn = (r: Pick<Route, 'method' | 'path'>, base = BASE) => `${base}/${r.method}${r.path.replace(/\{[^}]+\}/g, 'abc-123')}`;
/** The authorizer is called with the ARN of whichever route the token happened to call first. */
const CALLED_ARN = requestArn(TOKEN_ROUTES[0]!);
const CONTEXT = { tenantId: 't1', tenantSlug: 'acme', tokenId: 'tok1', scopes: '' };

const allowedResources = (p: Policy): string[] =>
  p.Statement.filter((s) => s.Effect === 'Allow').flatMap((s) => [(s as { Resource?: string | string[] }).Resource ?? []].flat());

describe('route table sanity (what the rest of this file relies on)', () => {
  it('has token routes, each with a named scope from SCOPES', () => {
    expect(TOKEN_ROUTES.length).toBeGreaterThan(0);
    for (const r of TOKEN_ROUTES) expect(NAMED_SCOPES, `${r.method} ${r.path}`).toContain(r.scope);
  });

  it('every named scope guards at least one route', () => {
    for (const s of NAMED_SCOPES)
      expect(
        TOKEN_ROUTES.some((r) => r.scope === s),
        s,
      ).toBe(true);
  });
});

describe('policyFor', () => {
  it('returns the principal id and the context unchanged', () => {
    const p = policyFor('tok1', CALLED_ARN, tokenRoutes(['*']), CONTEXT);
    expect(p.principalId).toBe('tok1');
    expect(p.context).toEqual(CONTEXT);
    expect(p.policyDocument.Version).toBe('2012-10-17');
  });

  it.each(NAMED_SCOPES)('scope %s allows exactly the routes that require it', (scope) => {
    const p = policyFor('tok1', CALLED_ARN, tokenRoutes([scope]), CONTEXT);
    const expected = TOKEN_ROUTES.filter((r) => r.scope === scope);
    expect(expected.length).toBeGreaterThan(0);
    expect(allowedResources(p.policyDocument).sort()).toEqual(expected.map((r) => routeArn(BASE, r)).sort());
    for (const r of TOKEN_ROUTES) {
      expect(isAllowed(p.policyDocument, requestArn(r)), `${scope} -> ${r.method} ${r.path}`).toBe(r.scope === scope);
    }
  });

  it('a token with several scopes gets the union of their routes', () => {
    const scopes = [NAMED_SCOPES[0]!, NAMED_SCOPES[NAMED_SCOPES.length - 1]!];
    const p = policyFor('tok1', CALLED_ARN, tokenRoutes(scopes), CONTEXT);
    for (const r of TOKEN_ROUTES) {
      expect(isAllowed(p.policyDocument, requestArn(r)), `${r.method} ${r.path}`).toBe(scopes.includes(r.scope!));
    }
  });

  it('* allows every token route and nothing outside the route table', () => {
    const p = policyFor('tok1', CALLED_ARN, tokenRoutes(['*']), CONTEXT);
    expect(allowedResources(p.policyDocument).sort()).toEqual(TOKEN_ROUTES.map((r) => routeArn(BASE, r)).sort());
    for (const r of TOKEN_ROUTES) expect(isAllowed(p.policyDocument, requestArn(r)), `${r.method} ${r.path}`).toBe(true);
    expect(isAllowed(p.policyDocument, `${BASE}/DELETE/api/v1/candidates`)).toBe(false);
    expect(isAllowed(p.policyDocument, `${BASE}/GET/api/v1/admin`)).toBe(false);
  });

  it('the policy does not depend on which route the token called first (API Gateway caches it per token)', () => {
    for (const scopes of [['*'], [NAMED_SCOPES[0]!], []]) {
      const docs = TOKEN_ROUTES.map((r) => JSON.stringify(policyFor('tok1', requestArn(r), tokenRoutes(scopes), CONTEXT).policyDocument));
      expect(new Set(docs).size, scopes.join(',')).toBe(1);
    }
  });

  it.each([
    ['no scopes', []],
    ['an unknown scope', ['admin']],
    ['a scope-like string', ['candidates:*']],
    ['a case variant', ['CANDIDATES:READ']],
    ['a scope with whitespace', [' candidates:read']],
  ])('%s -> a single Deny for the whole API', (_label, scopes) => {
    const p = policyFor('tok1', CALLED_ARN, tokenRoutes(scopes), CONTEXT);
    expect(p.policyDocument.Statement).toEqual([{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: `${BASE}/*` }]);
    for (const r of TOKEN_ROUTES) expect(isAllowed(p.policyDocument, requestArn(r))).toBe(false);
  });

  it('scopes the resources to the API and stage of the method ARN', () => {
    const p = policyFor('tok1', CALLED_ARN, tokenRoutes(['*']), CONTEXT);
    for (const res of allowedResources(p.policyDocument)) expect(res.startsWith(`${BASE}/`)).toBe(true);
    const otherApi = 'arn:aws:execute-api:eu-west-1:123456789012:zzzzzzzzzz/prod';
    const otherStage = 'arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5/dev';
    for (const r of TOKEN_ROUTES) {
      expect(isAllowed(p.policyDocument, requestArn(r, otherApi))).toBe(false);
      expect(isAllowed(p.policyDocument, requestArn(r, otherStage))).toBe(false);
    }
  });
});

describe('apiArnBase and routeArn', () => {
  it('cut a method ARN down to the API and stage', () => {
    expect(apiArnBase(`${BASE}/GET/api/v1/candidates`)).toBe(BASE);
    expect(apiArnBase(`${BASE}/POST/api/v1/a/b/c`)).toBe(BASE);
  });

  it('turn path parameters into a wildcard', () => {
    expect(routeArn(BASE, { method: 'GET', path: '/api/v1/candidates' })).toBe(`${BASE}/GET/api/v1/candidates`);
    expect(routeArn(BASE, { method: 'PATCH', path: '/api/v1/candidates/{id}/notes/{noteId}' })).toBe(
      `${BASE}/PATCH/api/v1/candidates/*/notes/*`,
    );
  });
});

describe('isAllowed', () => {
  const doc = (...Statement: Array<{ Effect: 'Allow' | 'Deny'; Resource: string | string[] }>): Policy => ({
    Version: '2012-10-17',
    Statement: Statement.map((s) => ({ Action: 'execute-api:Invoke', ...s })),
  });

  it('needs an Allow: an empty policy refuses', () => {
    expect(isAllowed(doc(), `${BASE}/GET/api/v1/candidates`)).toBe(false);
  });

  it('an explicit Deny wins over an Allow, in either order', () => {
    const allow = { Effect: 'Allow' as const, Resource: `${BASE}/*` };
    const deny = { Effect: 'Deny' as const, Resource: `${BASE}/POST/*` };
    for (const p of [doc(allow, deny), doc(deny, allow)]) {
      expect(isAllowed(p, `${BASE}/POST/api/v1/candidates`)).toBe(false);
      expect(isAllowed(p, `${BASE}/GET/api/v1/candidates`)).toBe(true);
    }
  });

  it('a Deny that does not match the request does not refuse it', () => {
    const p = doc({ Effect: 'Allow', Resource: `${BASE}/GET/api/v1/candidates` }, { Effect: 'Deny', Resource: `${BASE}/POST/*` });
    expect(isAllowed(p, `${BASE}/GET/api/v1/candidates`)).toBe(true);
  });

  it('wildcards match any run of characters', () => {
    const p = doc({ Effect: 'Allow', Resource: [`${BASE}/GET/api/v1/candidates/*`, `${BASE}/*/api/v1/pipeline`] });
    expect(isAllowed(p, `${BASE}/GET/api/v1/candidates/0192f1a0-0000-7000-8000-000000000001`)).toBe(true);
    expect(isAllowed(p, `${BASE}/GET/api/v1/pipeline`)).toBe(true);
    expect(isAllowed(p, `${BASE}/POST/api/v1/pipeline`)).toBe(true);
    expect(isAllowed(p, `${BASE}/GET/api/v1/candidates`)).toBe(false); // the wildcard needs the slash before it
  });

  it('refuses a different method or path', () => {
    const p = doc({ Effect: 'Allow', Resource: `${BASE}/GET/api/v1/candidates` });
    expect(isAllowed(p, `${BASE}/GET/api/v1/candidates`)).toBe(true);
    expect(isAllowed(p, `${BASE}/POST/api/v1/candidates`)).toBe(false);
    expect(isAllowed(p, `${BASE}/GET/api/v1/requisitions`)).toBe(false);
    expect(isAllowed(p, `${BASE}/GET/api/v1/candidates/x`)).toBe(false);
    expect(isAllowed(p, `${BASE}/GET/api/v1/candidatesx`)).toBe(false);
    expect(isAllowed(p, `x${BASE}/GET/api/v1/candidates`)).toBe(false);
  });

  it('treats regex characters in a resource literally', () => {
    const p = doc({ Effect: 'Allow', Resource: `${BASE}/GET/api/v1/openapi.json` });
    expect(isAllowed(p, `${BASE}/GET/api/v1/openapi.json`)).toBe(true);
    expect(isAllowed(p, `${BASE}/GET/api/v1/openapiXjson`)).toBe(false);
    const q = doc({ Effect: 'Allow', Resource: `${BASE}/GET/a+b(c)?[d]$` });
    expect(isAllowed(q, `${BASE}/GET/a+b(c)?[d]$`)).toBe(true);
    expect(isAllowed(q, `${BASE}/GET/aab(c)?[d]$`)).toBe(false);
  });

  it('accepts a single-string Resource as well as a list', () => {
    expect(isAllowed(doc({ Effect: 'Allow', Resource: `${BASE}/GET/x` }), `${BASE}/GET/x`)).toBe(true);
    expect(isAllowed(doc({ Effect: 'Allow', Resource: [`${BASE}/GET/y`, `${BASE}/GET/x`] }), `${BASE}/GET/x`)).toBe(true);
  });
});

describe('allows', () => {
  it('* satisfies every route; a named scope only its own', () => {
    for (const r of TOKEN_ROUTES) {
      expect(allows(['*'], r)).toBe(true);
      expect(allows([r.scope!], r)).toBe(true);
      expect(
        allows(
          NAMED_SCOPES.filter((s) => s !== r.scope),
          r,
        ),
      ).toBe(false);
    }
  });

  it('a route without a scope is allowed only by *', () => {
    expect(allows(['candidates:read'], {})).toBe(false);
    expect(allows(['*'], {})).toBe(true);
  });
});

describe('matchPath', () => {
  it('matches a literal path with no parameters', () => {
    expect(matchPath('/api/v1/candidates', '/api/v1/candidates')).toEqual({});
  });

  it('returns the path parameters by name', () => {
    expect(matchPath('/api/v1/candidates/{id}', '/api/v1/candidates/abc-123')).toEqual({ id: 'abc-123' });
    expect(matchPath('/api/v1/candidates/{id}/notes/{noteId}', '/api/v1/candidates/c1/notes/n2')).toEqual({ id: 'c1', noteId: 'n2' });
  });

  it('percent-decodes parameter values', () => {
    expect(matchPath('/a/{id}', '/a/x%20y%2Fz')).toEqual({ id: 'x y/z' });
  });

  it('does not match a different literal segment, a different depth or an empty parameter', () => {
    expect(matchPath('/api/v1/candidates', '/api/v1/requisitions')).toBeUndefined();
    expect(matchPath('/api/v1/candidates', '/api/v1/candidates/x')).toBeUndefined();
    expect(matchPath('/api/v1/candidates', '/api/v1/candidates/')).toBeUndefined();
    expect(matchPath('/api/v1/candidates/{id}', '/api/v1/candidates')).toBeUndefined();
    expect(matchPath('/api/v1/candidates/{id}', '/api/v1/candidates/')).toBeUndefined();
    expect(matchPath('/api/v1/candidates/{id}', '/api/v1/candidates/a/b')).toBeUndefined();
    expect(matchPath('/api/v1/candidates', '/API/v1/candidates')).toBeUndefined();
  });

  it('every route in the table matches its own path, and is the first route of its method that does', () => {
    // A static segment beside a parameter (`/uploads/limits` and `/uploads/{id}`) is taken by the
    // static one, as API Gateway does; the lookups take the first match in table order, so the
    // static route must come first.
    for (const r of ROUTES) {
      const concrete = r.path.replace(/\{[^}]+\}/g, 'x1');
      expect(matchPath(r.path, concrete), r.path).toBeDefined();
      const first = ROUTES.find((o) => o.method === r.method && matchPath(o.path, concrete));
      expect(first && `${first.method} ${first.path}`, `${r.method} ${r.path}`).toBe(`${r.method} ${r.path}`);
      const others = ROUTES.filter((o) => o !== r && o.method === r.method && matchPath(o.path, concrete));
      for (const o of others) expect(o.path, `${o.path} also takes ${concrete}`).toMatch(/\{/);
    }
  });

  // BUG (lib/routes.ts matchPath): decodeURIComponent throws URIError on a malformed escape.
  // The local gateway calls matchPath outside any try/catch, so once a route has a `{param}`,
  // a request like GET /api/v1/candidates/%E0%A4%A leaves the request unanswered (unhandled
  // rejection) instead of a 4xx. A matcher should answer "no match" (or a 400), never throw.
  it('does not throw on a malformed percent-escape in a parameter', () => {
    expect(() => matchPath('/api/v1/candidates/{id}', '/api/v1/candidates/%E0%A4%A')).not.toThrow();
    expect(() => matchPath('/api/v1/candidates/{id}', '/api/v1/candidates/%')).not.toThrow();
  });
});

describe('session policy', () => {
  it('allows every session route and no token or public route', () => {
    const p = policyFor('user1', CALLED_ARN, sessionRoutes(), CONTEXT);
    const base = apiArnBase(CALLED_ARN);
    for (const r of routes as readonly Route[]) {
      expect(isAllowed(p.policyDocument, routeArn(base, r).replace('*', 'x')), `${r.method} ${r.path}`).toBe(r.auth === 'session');
    }
  });
});
