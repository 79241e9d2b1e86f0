/**
 * Where the route functions live: in nested stacks of the stack, one per API resource (the first
 * path segment after `/api/v1` or `/api`, so a session twin shares its token route's stack), each
 * holding its functions with their roles, policies, log groups, invoke permissions and alarms.
 * CloudFormation refuses a stack of more than 500 resources, and every route function costs the
 * stack six or seven of them; here it costs the stack none. The API's methods have their own rule
 * (api-method-stacks.ts). The rule is a function of the route table alone, so adding a route needs
 * no edit here (docs/deploying.md, "Stacks").
 */
import { NestedStack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { Route } from '../../lib/routes';
import { pascal } from './table-function';

/**
 * A resource with more handler modules than this is spread over several stacks. Each function
 * costs its stack about seven resources (function, role, policy, log group, alarm and one invoke
 * permission per route it serves), so 40 keep a stack near 300, under the goal of 400.
 */
export const MAX_FUNCTIONS_PER_ROUTE_STACK = 40;

/** `/api/v1/candidates/{id}` and its twin `/api/candidates/{id}` -> `candidates`. */
export function resourceOf(routePath: string): string {
  const segment = routePath.replace(/^\/api(\/v1)?(?=\/|$)/, '').split('/')[1];
  if (!segment) throw new Error(`Route path ${routePath} names no resource under /api`);
  return segment;
}

/**
 * The nested stack (by construct id) of every route handler module: `Functions<Resource>`, or
 * `Functions<Resource><n>` for the n-th part of a resource with more than
 * MAX_FUNCTIONS_PER_ROUTE_STACK modules (modules in name order, split evenly, so a new module
 * moves at most a few others). A module serving routes of several resources goes with the first
 * resource by name. Moving a function between nested stacks replaces it, which is safe: it holds
 * no data, and its name is generated.
 */
export function routeStackIds(routes: readonly Route[]): Map<string, string> {
  const resourceOfModule = new Map<string, string>();
  for (const r of routes) {
    const resource = resourceOf(r.path);
    const current = resourceOfModule.get(r.handler);
    if (current === undefined || resource < current) resourceOfModule.set(r.handler, resource);
  }
  const modulesOf = new Map<string, string[]>();
  for (const [module, resource] of resourceOfModule) modulesOf.set(resource, [...(modulesOf.get(resource) ?? []), module]);

  const stackOf = new Map<string, string>();
  for (const [resource, modules] of modulesOf) {
    const sorted = [...modules].sort();
    const parts = Math.ceil(sorted.length / MAX_FUNCTIONS_PER_ROUTE_STACK);
    const size = Math.ceil(sorted.length / parts);
    sorted.forEach((module, i) => {
      const part = Math.floor(i / size);
      stackOf.set(module, `Functions${pascal(resource)}${parts > 1 ? part + 1 : ''}`);
    });
  }
  return stackOf;
}

/** One nested stack of route functions; RouteApi fills it. */
export class RouteFunctionStack extends NestedStack {
  constructor(scope: Construct, id: string) {
    super(scope, id, { description: `Talent pipeline: route functions (${id})` });
  }
}
