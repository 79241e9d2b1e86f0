/**
 * IAM policies for the TOKEN authorizer. The policy allows exactly the routes the token's
 * scopes permit, across the whole API, because API Gateway caches one policy per token and
 * reuses it for every route that token calls. The routes come from a generated list (method,
 * path, auth, scope), not the route table: an authorizer bundles no schema and no docs.
 */
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { allows, matchPath, type Route } from '../api/route';
import { ROUTE_LIST } from './route-list.generated';

/** What the authorizers know of a route: no schemas, no docs (lib/auth/route-list.generated.ts). */
export type ListedRoute = Pick<Route, 'method' | 'path' | 'auth' | 'scope' | 'twoFactorStep'>;
const routes: readonly ListedRoute[] = ROUTE_LIST;

/** `arn:aws:execute-api:region:account:apiId/stage` from any method ARN of the API. */
export const apiArnBase = (methodArn: string) => methodArn.split('/').slice(0, 2).join('/');

export const routeArn = (base: string, route: Pick<Route, 'method' | 'path'>) =>
  `${base}/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}`;

/**
 * The routes outside `allowed` that an allowed resource would still reach: a path parameter's `*`
 * matches any run of characters, slashes included, so `GET /candidates/*` (a candidate) also
 * matches `GET /candidates/{id}/offers`. They are denied by name; an explicit Deny wins.
 */
function overreached(base: string, allowed: readonly Pick<Route, 'method' | 'path'>[], resources: readonly string[]): string[] {
  const isAllowedRoute = (r: ListedRoute) => allowed.some((a) => a.method === r.method && a.path === r.path);
  const allowedArns = allowed.map((a) => routeArn(base, a));
  const reach = resources.map(globRegex);
  return routes
    .filter((r) => !isAllowedRoute(r))
    .map((r) => routeArn(base, r))
    .filter((arn) => reach.some((re) => re.test(arn)) && !allowedArns.some((a) => globMatch(arn, a)));
}

/** A policy allowing exactly `allowed` routes of the API that `methodArn` belongs to. */
export function policyFor(
  principalId: string,
  methodArn: string,
  allowed: readonly Pick<Route, 'method' | 'path'>[],
  context: Record<string, string>,
): APIGatewayAuthorizerResult {
  const base = apiArnBase(methodArn);
  const resources = allowed.map((r) => routeArn(base, r));
  const denied = overreached(base, allowed, resources);
  return {
    principalId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: resources.length
        ? [
            { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: resources },
            ...(denied.length ? [{ Action: 'execute-api:Invoke', Effect: 'Deny' as const, Resource: denied }] : []),
          ]
        : [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: `${base}/*` }],
    },
    context,
  };
}

/** Token routes the scopes permit. */
export const tokenRoutes = (scopes: readonly string[]) => routes.filter((r) => r.auth === 'token' && allows(scopes, r));

/** Every cookie-session route; for a half-signed-in session, only the routes of its two-factor step. */
export const sessionRoutes = (twoFactor?: 'verify' | 'enrol') =>
  routes.filter((r) => r.auth === 'session' && (!twoFactor || r.twoFactorStep?.includes(twoFactor)));

const globRegex = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
const globMatch = (pattern: string, value: string) => globRegex(pattern).test(value);

/** Evaluate a policy as API Gateway does: an explicit Deny wins, otherwise an Allow is needed. */
export function isAllowed(policy: APIGatewayAuthorizerResult['policyDocument'], methodArn: string): boolean {
  let allowed = false;
  for (const st of policy.Statement) {
    const s = st as { Effect: string; Resource?: string | string[] };
    const resources = ([] as string[]).concat(s.Resource ?? []);
    if (!resources.some((r) => globMatch(r, methodArn))) continue;
    if (s.Effect === 'Deny') return false;
    if (s.Effect === 'Allow') allowed = true;
  }
  return allowed;
}

/** The route table line (`GET /api/v1/candidates/{id}`) a method ARN calls, for log lines. */
export function routeOfArn(methodArn: string): string | undefined {
  const [method, ...path] = methodArn.split('/').slice(2);
  const r = routes.find((x) => x.method === method && matchPath(x.path, `/${path.join('/')}`));
  return r && `${r.method} ${r.path}`;
}
