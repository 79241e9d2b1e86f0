/**
 * The "sees" rule (lib/domain/visibility.ts) and the team check (lib/domain/requisition-team.ts),
 * as pure functions: no DynamoDB.
 */
import { describe, expect, it } from 'vitest';
import { decideTeam } from '../../lib/domain/requisition-team';
import { maySee, personSightOf, seesAll, seesPersonRecord, viewerOf, withoutHiddenFields } from '../../lib/domain/visibility';
import type { User } from '../../lib/store/users';

const onIt = { hiring_manager_ids: ['hm-1'] };
const offIt = { hiring_manager_ids: ['hm-2'] };

describe('maySee', () => {
  it('admins and recruiters see every record', () => {
    for (const role of ['admin', 'recruiter'] as const) {
      expect(seesAll({ role })).toBe(true);
      expect(maySee({ role }, { kind: 'requisition', requisition: offIt })).toBe(true);
      expect(maySee({ role }, { kind: 'candidate', id: 'c', requisition: undefined })).toBe(true);
    }
  });

  it('a hiring manager sees the requisitions naming them and their candidates, nothing else', () => {
    const hm = { role: 'hiring_manager' as const, userId: 'hm-1' };
    expect(maySee(hm, { kind: 'requisition', requisition: onIt })).toBe(true);
    expect(maySee(hm, { kind: 'requisition', requisition: offIt })).toBe(false);
    expect(maySee(hm, { kind: 'requisition', requisition: {} })).toBe(false);
    expect(maySee(hm, { kind: 'candidate', id: 'c', requisition: onIt })).toBe(true);
    expect(maySee(hm, { kind: 'candidate', id: 'c', requisition: offIt })).toBe(false);
    expect(maySee(hm, { kind: 'candidate', id: 'c', requisition: undefined })).toBe(false);
    // Without a user (never so for a session or a personal token) nothing is theirs.
    expect(maySee({ role: 'hiring_manager' }, { kind: 'requisition', requisition: onIt })).toBe(false);
  });

  it('an interviewer sees the candidates assigned to them only: none while there are no interviews', () => {
    const iv = { role: 'interviewer' as const, userId: 'iv-1' };
    expect(maySee(iv, { kind: 'candidate', id: 'c', requisition: onIt })).toBe(false);
    expect(maySee(iv, { kind: 'candidate', id: 'c', requisition: onIt }, { candidateIds: new Set(['c']) })).toBe(true);
    expect(maySee(iv, { kind: 'requisition', requisition: onIt }, { candidateIds: new Set(['c']) })).toBe(false);
    expect(withoutHiddenFields(iv, { phone: '+1 555' })).toEqual({ phone: null });
    expect(withoutHiddenFields({ role: 'recruiter' }, { phone: '+1 555' })).toEqual({ phone: '+1 555' });
  });

  it('a token acts as its creator; a workspace token and the admin CLI as an admin', () => {
    const base = { tenantId: 't', tenantSlug: 's', tokenId: 'k', scopes: [] };
    expect(viewerOf({ kind: 'token', ...base, role: 'hiring_manager', creator: { id: 'u', email: 'e' } })).toEqual({
      role: 'hiring_manager',
      userId: 'u',
    });
    expect(viewerOf({ kind: 'token', ...base, role: 'admin' })).toEqual({ role: 'admin' });
    expect(viewerOf({ kind: 'system' })).toEqual({ role: 'admin' });
  });
});

describe("a person's sight: the person through the candidates seen, and only those candidates' records", () => {
  // Two candidates of one person: one on a requisition hm-1 is on, one on another.
  const candidates = [
    { id: 'c-on', requisition: onIt },
    { id: 'c-off', requisition: offIt },
  ];
  const recordsSeen = (sight: ReturnType<typeof personSightOf>) =>
    sight ? [undefined, null, 'c-on', 'c-off'].filter((c) => seesPersonRecord(sight, c)) : 'person hidden';

  it('admins and recruiters see the person and every record of theirs', () => {
    for (const role of ['admin', 'recruiter'] as const)
      expect(recordsSeen(personSightOf({ role }, candidates))).toEqual([undefined, null, 'c-on', 'c-off']);
  });

  it("a hiring manager sees the person through their requisition's candidate, and that candidate's records", () => {
    expect(recordsSeen(personSightOf({ role: 'hiring_manager', userId: 'hm-1' }, candidates))).toEqual([undefined, null, 'c-on']);
    expect(recordsSeen(personSightOf({ role: 'hiring_manager', userId: 'hm-3' }, candidates))).toBe('person hidden');
  });

  it('an interviewer sees the person through the candidates of their assignments (a fake set here), whatever the requisition', () => {
    const iv = { role: 'interviewer' as const, userId: 'iv-1' };
    expect(recordsSeen(personSightOf(iv, candidates))).toBe('person hidden');
    expect(recordsSeen(personSightOf(iv, candidates, { candidateIds: new Set(['c-off']) }))).toEqual([undefined, null, 'c-off']);
    expect(recordsSeen(personSightOf(iv, candidates, { candidateIds: new Set(['c-elsewhere']) }))).toBe('person hidden');
  });
});

describe('decideTeam', () => {
  const user = (id: string, deactivated?: true): User => ({
    id,
    tenant_id: 't',
    email: `${id}@example.com`,
    role: 'hiring_manager',
    created_at: '2026-01-01T00:00:00.000Z',
    must_change_password: false,
    two_factor_enabled: false,
    ...(deactivated && { deactivated_at: '2026-01-02T00:00:00.000Z' }),
  });
  const users = [user('a'), user('b'), user('gone', true)];

  it('keeps active members, each hiring manager once, and only the fields given', () => {
    expect(decideTeam(users, { hiring_manager_ids: ['b', 'a', 'b'] })).toEqual({ hiring_manager_ids: ['b', 'a'] });
    expect(decideTeam(users, { recruiter_id: null })).toEqual({ recruiter_id: null });
    expect(decideTeam(users, {})).toEqual({});
  });

  it('refuses an unknown or deactivated member with 400 naming the field', () => {
    expect(() => decideTeam(users, { recruiter_id: 'x' })).toThrow(expect.objectContaining({ status: 400, field: 'recruiter_id' }));
    expect(() => decideTeam(users, { hiring_manager_ids: ['a', 'gone'] })).toThrow(
      expect.objectContaining({ status: 400, field: 'hiring_manager_ids[1]' }),
    );
  });
});
