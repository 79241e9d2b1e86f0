/**
 * The console twin rule (lib/routes.ts): a line marked `console: true` gets a session twin any
 * member may call; one marked `console: { role: 'admin' }` gets a twin for admins only, while its
 * token route still needs only its scope. The OpenAPI document says which.
 */
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../lib/openapi';
import { routes, type Route } from '../../lib/routes';

const all = routes as readonly Route[];
const lineOf = (twin: Route) => all.find((r) => r.path === twin.twinOf && r.method === twin.method)!;

describe('console twins and roles', () => {
  it('a twin carries the role its line asks for, and only then', () => {
    const twins = all.filter((r) => r.twinOf);
    expect(twins.length).toBeGreaterThan(0);
    for (const twin of twins) {
      const line = lineOf(twin);
      expect(twin.role, twin.path).toBe(typeof line.console === 'object' ? line.console.role : undefined);
      // The token route itself never has a role: a token needs its scope only.
      expect(line.role, line.path).toBeUndefined();
    }
  });

  it('erasure is admin-only in the console, and scope candidates:erase on the API', () => {
    const api = all.find((r) => r.method === 'POST' && r.path === '/api/v1/candidates/{id}/erase')!;
    const twin = all.find((r) => r.method === 'POST' && r.path === '/api/candidates/{id}/erase')!;
    expect(api).toMatchObject({ auth: 'token', scope: 'candidates:erase' });
    expect(twin).toMatchObject({ auth: 'session', role: 'admin', twinOf: api.path });
    expect(twin.scope).toBeUndefined();
    // Every other twin is open to any member.
    expect(all.filter((r) => r.twinOf && r.role).map((r) => r.path)).toEqual([twin.path]);
  });

  it('the OpenAPI document says who may call each twin', () => {
    const doc = openApiDocument() as unknown as {
      paths: Record<string, Record<string, { description?: string; responses: Record<string, unknown> }>>;
    };
    const erase = doc.paths['/api/candidates/{id}/erase']!.post!;
    expect(erase.description).toContain('Only workspace admins may call it');
    expect(erase.responses['403']).toBeDefined();
    expect(doc.paths['/api/candidates/{id}']!.patch!.description).toContain('Any member may call it');
  });
});
