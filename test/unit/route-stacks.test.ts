/**
 * The rule that places each route function in a nested stack (infra/constructs/route-stacks.ts): a
 * function of the route table alone, so that a new route needs no edit and moves no other
 * function, and no nested stack takes more than MAX_FUNCTIONS_PER_ROUTE_STACK functions however
 * many a resource gets. test/unit/deploy-limits.test.ts holds what a full one costs.
 */
import { describe, expect, it } from 'vitest';
import { MAX_FUNCTIONS_PER_ROUTE_STACK, resourceOf, routeStackIds } from '../../infra/constructs/route-stacks';
import { routes, type Route } from '../../lib/routes';

const route = (method: string, path: string, handler: string) => ({ method, path, handler }) as Route;
const countBy = (ids: Iterable<string>) => {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
};

describe('route stacks', () => {
  it('a route belongs to the first path segment under /api/v1 or /api', () => {
    expect(resourceOf('/api/v1/candidates/{id}')).toBe('candidates');
    expect(resourceOf('/api/candidates/{id}/erase')).toBe('candidates');
    expect(resourceOf('/api/session/password')).toBe('session');
    expect(resourceOf('/api/v1/openapi.json')).toBe('openapi.json');
    expect(() => resourceOf('/api')).toThrow(/names no resource/);
  });

  it('every handler module of the route table has one stack, named after its resource; a twin shares its token route’s', () => {
    const ids = routeStackIds(routes);
    expect([...ids.keys()].sort()).toEqual([...new Set(routes.map((r) => r.handler))].sort());
    expect(ids.get('list-candidates')).toBe('FunctionsCandidates');
    expect(ids.get('create-webhook')).toBe('FunctionsWebhooks');
    expect(ids.get('openapi')).toBe('FunctionsOpenapiJson');
    for (const [, id] of ids) expect(id).toMatch(/^Functions[A-Z][A-Za-z0-9]*$/);
  });

  it('a new route moves no existing function: on an existing resource or a new one', () => {
    const before = routeStackIds(routes);
    for (const added of [
      // A module the table does not have yet (list-notes is people's now).
      route('GET', '/api/v1/candidates/{id}/interviews', 'list-candidate-interviews'),
      route('POST', '/api/debriefs', 'create-debrief'),
      route('GET', '/api/v1/aaa', 'first-by-name'),
    ]) {
      expect(before.has(added.handler), `${added.handler} is new`).toBe(false);
      const after = routeStackIds([...routes, added]);
      for (const [module, id] of before) expect(after.get(module), `${module} after ${added.path}`).toBe(id);
      expect(after.get(added.handler)).toMatch(/^Functions/);
    }
  });

  it(`a resource with more than ${MAX_FUNCTIONS_PER_ROUTE_STACK} functions is spread evenly over numbered stacks`, () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => route('GET', `/api/v1/things/x${i}`, `thing-${String(i).padStart(3, '0')}`));
    expect(new Set(routeStackIds(many(MAX_FUNCTIONS_PER_ROUTE_STACK)).values())).toEqual(new Set(['FunctionsThings']));
    for (const n of [MAX_FUNCTIONS_PER_ROUTE_STACK + 1, 100, 250]) {
      const counts = countBy(routeStackIds(many(n)).values());
      expect(counts.size, `${n}`).toBe(Math.ceil(n / MAX_FUNCTIONS_PER_ROUTE_STACK));
      for (const [id, count] of counts) {
        expect(id).toMatch(/^FunctionsThings\d+$/);
        expect(count, id).toBeLessThanOrEqual(MAX_FUNCTIONS_PER_ROUTE_STACK);
      }
    }
  });

  it('a module serving routes of several resources goes with the first by name, whatever the order', () => {
    const table = [route('GET', '/api/v1/zeta', 'shared'), route('GET', '/api/v1/alpha', 'shared')];
    expect(routeStackIds(table).get('shared')).toBe('FunctionsAlpha');
    expect(routeStackIds([...table].reverse()).get('shared')).toBe('FunctionsAlpha');
  });
});
