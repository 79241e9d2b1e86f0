/**
 * The last-admin rule (lib/domain/members.ts decideMemberChange) as a pure function: a change
 * that would leave the workspace without an admin is refused, a member gone is a 404.
 */
import { describe, expect, it } from 'vitest';

process.env.TABLE_NAME ??= 'unused';
const { decideMemberChange } = await import('../../lib/domain/members');
const { ConflictError, NotFoundError } = await import('../../lib/errors');
type User = import('../../lib/store/users').User;

const user = (id: string, role: User['role']): User => ({
  id,
  tenant_id: 't',
  email: `${id}@x.example`,
  role,
  created_at: 'a',
  must_change_password: false,
  two_factor_enabled: false,
});
const anotherAdmin = (_t: User, others: User[]) => others.some((u) => u.role === 'admin');

describe('decideMemberChange', () => {
  it('refuses to remove the last admin, allows it with another admin, and plans at the version read', () => {
    const alone = { users: [user('a', 'admin'), user('b', 'recruiter')], version: 7 };
    expect((decideMemberChange(alone, 'a', anotherAdmin) as { refuse: Error }).refuse).toBeInstanceOf(ConflictError);
    const two = { users: [user('a', 'admin'), user('c', 'admin')], version: 7 };
    expect(decideMemberChange(two, 'a', anotherAdmin)).toEqual({ write: { target: two.users[0], version: 7 } });
  });

  it('a member not read, or found gone by the write, is a 404', () => {
    expect((decideMemberChange({ users: [], version: 0 }, 'a', anotherAdmin) as { refuse: Error }).refuse).toBeInstanceOf(NotFoundError);
    const gone = { users: [user('a', 'admin'), user('c', 'admin')], version: 1, gone: true };
    expect((decideMemberChange(gone, 'a', anotherAdmin) as { refuse: Error }).refuse).toBeInstanceOf(NotFoundError);
  });
});
