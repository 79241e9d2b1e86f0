/**
 * The role -> token scopes rule (lib/permissions.ts): a member may hold exactly the scopes of the
 * token routes whose console twins any member may call, so a token never reaches what its
 * creator could not reach in the console; narrowing and revoking follow from it.
 */
import { describe, expect, it } from 'vitest';
import { ROLES, SCOPES } from '../../lib/model';
import { mayRevoke, narrows, narrowTo, scopesBeyond, scopesOf } from '../../lib/permissions';
import { routes, type Route } from '../../lib/routes';

const all = routes as readonly Route[];

describe('scopes per role', () => {
  it('an admin may hold every scope, * included', () => {
    expect([...scopesOf('admin')]).toEqual([...SCOPES]);
  });

  it("a member's scopes are those of the routes a member may call in the console: erasure and * are out", () => {
    expect(scopesOf('member')).not.toContain('*');
    expect(scopesOf('member')).not.toContain('candidates:erase');
    for (const twin of all.filter((r) => r.twinOf)) {
      const line = all.find((r) => r.path === twin.twinOf && r.method === twin.method)!;
      expect(scopesOf('member').includes(line.scope!), `${line.method} ${line.path}`).toBe(twin.role === undefined);
    }
    // GET /api/v1/pipeline has no twin: members read the same summary on the console's overview.
    expect(all.find((r) => r.path === '/api/overview')!.role).toBeUndefined();
    expect(scopesOf('member')).toContain('pipeline:read');
  });

  it('scopesBeyond names exactly what the role may not grant, in the order asked', () => {
    expect(scopesBeyond('member', ['candidates:read', '*', 'candidates:erase'])).toEqual(['*', 'candidates:erase']);
    expect(scopesBeyond('member', ['candidates:read', 'pipeline:write'])).toEqual([]);
    for (const role of ROLES) expect(scopesBeyond(role, scopesOf(role))).toEqual([]);
  });
});

describe('narrowing', () => {
  it('keeps what the role allows, in the token order, and expands * into the named scopes of the role', () => {
    expect(narrowTo('member', ['*'])).toEqual([...scopesOf('member')]);
    expect(narrowTo('member', ['pipeline:read', 'candidates:erase', 'candidates:read'])).toEqual(['pipeline:read', 'candidates:read']);
    expect(narrowTo('member', ['candidates:erase'])).toEqual([]);
    expect(narrowTo('admin', ['*', 'candidates:erase'])).toEqual(['*', 'candidates:erase']);
    // * with a scope of its own: that scope once, then the rest.
    expect(narrowTo('member', ['*', 'pipeline:read'])).toEqual([
      'pipeline:read',
      ...scopesOf('member').filter((s) => s !== 'pipeline:read'),
    ]);
  });

  it('only a change that takes a scope away narrows', () => {
    expect(narrows('admin', 'member')).toBe(true);
    expect(narrows('member', 'admin')).toBe(false);
    expect(narrows('member', 'member')).toBe(false);
  });
});

describe('revoking', () => {
  it('one’s own token always; someone else’s or a workspace token only as an admin', () => {
    expect(mayRevoke('member', 'u1', 'u1')).toBe(true);
    expect(mayRevoke('member', 'u1', 'u2')).toBe(false);
    expect(mayRevoke('member', 'u1', undefined)).toBe(false);
    expect(mayRevoke('admin', 'u1', 'u2')).toBe(true);
    expect(mayRevoke('admin', 'u1', undefined)).toBe(true);
  });
});
