/**
 * The permission table and the role -> token scopes rule (lib/permissions.ts): the table names
 * exactly the routes that need a caller, a role holds exactly the scopes of the token routes it
 * may call, the routes marked admin-only in the route table are admin-only in the table too, and
 * narrowing and revoking follow from it.
 */
import { describe, expect, it } from 'vitest';
import { LEGACY_MEMBER_ROLE, ROLES, roleFrom, SCOPES } from '../../lib/model';
import { may, mayRevoke, narrows, narrowTo, ROUTE_ROLES, scopesBeyond, scopesOf } from '../../lib/permissions';
import { routes, type Route } from '../../lib/routes';

const all = routes as readonly Route[];
const nameOf = (r: Route) => `${r.method} ${r.path}`;

describe('the permission table', () => {
  it('names every route that needs a caller, and nothing else', () => {
    expect(Object.keys(ROUTE_ROLES).sort()).toEqual(
      all
        .filter((r) => r.auth !== 'none')
        .map(nameOf)
        .sort(),
    );
  });

  it('an admin may call every route; a route marked admin-only in the route table is admin-only here', () => {
    for (const r of all.filter((x) => x.auth !== 'none')) {
      expect(may('admin', nameOf(r)), nameOf(r)).toBe(true);
      if (r.role === 'admin') expect(ROUTE_ROLES[nameOf(r) as keyof typeof ROUTE_ROLES], nameOf(r)).toEqual(['admin']);
    }
  });

  it('a console twin and its token route let the same roles in, but for a twin the route table keeps for admins', () => {
    for (const twin of all.filter((r) => r.twinOf)) {
      const line = `${twin.method} ${twin.twinOf}`;
      for (const role of ROLES) {
        if (twin.role) expect(may(role, nameOf(twin)), `${role} ${nameOf(twin)}`).toBe(role === 'admin');
        else expect(may(role, nameOf(twin)), `${role} ${nameOf(twin)}`).toBe(may(role, line));
      }
    }
  });

  it('what each role does: the hiring manager works their requisitions and notes their people, the interviewer reads', () => {
    const allowed = (role: (typeof ROLES)[number]) => Object.keys(ROUTE_ROLES).filter((n) => may(role, n) && n.includes('/api/v1/'));
    const personReads = [
      'GET /api/v1/people/{id}',
      'GET /api/v1/people/{id}/notes',
      'GET /api/v1/people/{id}/notes/{note_id}',
      'GET /api/v1/people/{id}/activity',
      'GET /api/v1/people/{id}/files',
      'GET /api/v1/people/{id}/files/{file_id}',
      'GET /api/v1/people/{id}/files/{file_id}/text',
      'GET /api/v1/people/{id}/files/{file_id}/download',
    ];
    expect(allowed('hiring_manager').sort()).toEqual(
      [
        'GET /api/v1/candidates',
        'GET /api/v1/candidates/{id}',
        'GET /api/v1/requisitions',
        'GET /api/v1/requisitions/{id}',
        'POST /api/v1/requisitions/{id}/status',
        'GET /api/v1/requisitions/{id}/posting',
        'GET /api/v1/pipeline',
        'POST /api/v1/pipeline',
        ...personReads,
        'POST /api/v1/people/{id}/notes',
        'PATCH /api/v1/people/{id}/notes/{note_id}',
        'DELETE /api/v1/people/{id}/notes/{note_id}',
        'GET /api/v1/requisitions/{id}/interview-plan',
        'GET /api/v1/interviews',
        'GET /api/v1/interviews/{id}',
        'POST /api/v1/interviews/{id}/scorecards',
        'GET /api/v1/interviews/{id}/scorecards',
        'GET /api/v1/candidates/{id}/scorecards',
        // Reads only: the offers and placements of their requisitions.
        'GET /api/v1/candidates/{id}/offers',
        'GET /api/v1/offers/{id}',
        'GET /api/v1/placements',
        'GET /api/v1/placements/{id}',
      ].sort(),
    );
    expect(allowed('interviewer').sort()).toEqual(
      [
        'GET /api/v1/candidates',
        'GET /api/v1/candidates/{id}',
        'GET /api/v1/interviews',
        'GET /api/v1/interviews/{id}',
        'POST /api/v1/interviews/{id}/scorecards',
        'GET /api/v1/interviews/{id}/scorecards',
        'GET /api/v1/candidates/{id}/scorecards',
        ...personReads,
      ].sort(),
    );
    // Files and offers are written by recruiting roles only; offers are read by the team too, never by interviewers.
    for (const n of ['POST /api/v1/people/{id}/files', 'DELETE /api/v1/people/{id}/files/{file_id}', 'PATCH /api/v1/offers/{id}'])
      expect(
        ROLES.filter((r) => may(r, n)),
        n,
      ).toEqual(['admin', 'recruiter']);
    expect(ROLES.filter((r) => may(r, 'GET /api/v1/offers/{id}'))).toEqual(['admin', 'recruiter', 'hiring_manager']);
    // Members, settings, webhook changes, audit, erasure: admins only.
    for (const n of [
      'POST /api/members',
      'PUT /api/settings/pipeline',
      'POST /api/webhooks',
      'GET /api/audit',
      'POST /api/candidates/{id}/erase',
    ])
      expect(
        ROLES.filter((r) => may(r, n)),
        n,
      ).toEqual(['admin']);
    expect(may('recruiter', 'not a route')).toBe(false);
  });
});

describe('roles', () => {
  it('the stored `member` reads as a recruiter; an unknown name as nothing', () => {
    expect(roleFrom(LEGACY_MEMBER_ROLE)).toBe('recruiter');
    for (const role of ROLES) expect(roleFrom(role)).toBe(role);
    expect(roleFrom('owner')).toBeUndefined();
    expect(roleFrom(undefined)).toBeUndefined();
  });
});

describe('scopes per role', () => {
  it('an admin may hold every scope, * included', () => {
    expect([...scopesOf('admin')]).toEqual([...SCOPES]);
  });

  it("a role's scopes are those of the token routes the table lets it call: erasure and * are for admins", () => {
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      const callable = new Set(all.filter((r) => r.auth === 'token' && may(role, nameOf(r))).map((r) => r.scope));
      expect(new Set(scopesOf(role)), role).toEqual(callable);
      expect(scopesOf(role)).not.toContain('*');
      expect(scopesOf(role)).not.toContain('candidates:erase');
    }
  });

  it('scopesBeyond names exactly what the role may not grant, in the order asked', () => {
    expect(scopesBeyond('recruiter', ['candidates:read', '*', 'candidates:erase'])).toEqual(['*', 'candidates:erase']);
    expect(scopesBeyond('recruiter', ['candidates:read', 'pipeline:write'])).toEqual([]);
    expect(scopesBeyond('interviewer', ['candidates:read', 'pipeline:write'])).toEqual(['pipeline:write']);
    for (const role of ROLES) expect(scopesBeyond(role, scopesOf(role))).toEqual([]);
  });
});

describe('narrowing', () => {
  it('keeps what the role allows, in the token order, and expands * into the named scopes of the role', () => {
    expect(narrowTo('recruiter', ['*'])).toEqual([...scopesOf('recruiter')]);
    expect(narrowTo('recruiter', ['pipeline:read', 'candidates:erase', 'candidates:read'])).toEqual(['pipeline:read', 'candidates:read']);
    expect(narrowTo('recruiter', ['candidates:erase'])).toEqual([]);
    expect(narrowTo('admin', ['*', 'candidates:erase'])).toEqual(['*', 'candidates:erase']);
    expect(narrowTo('interviewer', ['*'])).toEqual(['candidates:read', 'interviews:read', 'scorecards:read', 'scorecards:write']);
    expect(narrowTo('hiring_manager', ['candidates:erase', 'candidates:write', 'offers:read', 'offers:write'])).toEqual([
      'candidates:write',
      'offers:read',
    ]);
    // * with a scope of its own: that scope once, then the rest.
    expect(narrowTo('recruiter', ['*', 'pipeline:read'])).toEqual([
      'pipeline:read',
      ...scopesOf('recruiter').filter((s) => s !== 'pipeline:read'),
    ]);
  });

  it('only a change that takes a scope away narrows', () => {
    expect(narrows('admin', 'recruiter')).toBe(true);
    expect(narrows('recruiter', 'hiring_manager')).toBe(true);
    expect(narrows('hiring_manager', 'interviewer')).toBe(true);
    expect(narrows('interviewer', 'hiring_manager')).toBe(false);
    expect(narrows('recruiter', 'admin')).toBe(false);
    expect(narrows('recruiter', 'recruiter')).toBe(false);
  });
});

describe('revoking', () => {
  it('one’s own token always; someone else’s or a workspace token only as an admin', () => {
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      expect(mayRevoke(role, 'u1', 'u1')).toBe(true);
      expect(mayRevoke(role, 'u1', 'u2')).toBe(false);
      expect(mayRevoke(role, 'u1', undefined)).toBe(false);
      expect(mayRevoke(role, 'u1', 'u1', 'workspace')).toBe(false);
    }
    expect(mayRevoke('admin', 'u1', 'u2')).toBe(true);
    expect(mayRevoke('admin', 'u1', undefined)).toBe(true);
  });
});
