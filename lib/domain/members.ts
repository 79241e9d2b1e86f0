/**
 * Workspace members, managed by its admins: add with a temporary password, change a role, remove,
 * reset a password, clear a sign-in lockout. The workspace never ends up without an admin: a
 * change is decided on the users read at a membership version and written only if that version
 * still holds (lib/store/users.ts), retried otherwise.
 */
import { hashPassword, temporaryPassword } from '../auth/password';
import { ConflictError, NotFoundError, TooManyRequestsError } from '../errors';
import type { Member, Role } from '../schemas';
import { clearAllFailures } from '../store/login-failures';
import { addDay, giveAddPlaceBack, takeAddPlace } from '../store/member-adds';
import { endSessionsOf, setRoleOfSessions } from '../store/sessions';
import { WRITTEN, type TxOutcome } from '../store/tx';
import {
  createUser,
  deleteUser,
  findUserByEmail,
  getUser,
  listUsers,
  normalizeEmail,
  readMembership,
  setDeactivated,
  setRole,
  setUserPassword,
  type MembershipParts,
  type User,
} from '../store/users';
import { narrows } from '../permissions';
import { auditBy, type SessionPrincipal } from './principal';
import { decideAndWrite, type Decision } from './retry';
import { putAudit } from '../store/audit';
import { sweepTokensOf } from './tokens';

const view = (u: User): Member => ({
  id: u.id,
  email: u.email,
  role: u.role,
  created_at: u.created_at,
  must_change_password: u.must_change_password,
  deactivated_at: u.deactivated_at ?? null,
  two_factor_enabled: u.two_factor_enabled,
  time_zone: u.time_zone ?? null,
});

export async function listMembers(p: SessionPrincipal): Promise<Member[]> {
  const users = await listUsers(p.tenantId);
  return users.sort((a, b) => a.email.localeCompare(b.email)).map(view);
}

/**
 * Add a member with a temporary password. An address that signs in to another workspace cannot
 * be added, and the answer never says so more than the day's budget allows (lib/store/member-adds.ts):
 * every add holds a place of it until it is known not to be such a refusal.
 */
export async function addMember(p: SessionPrincipal, { email, role }: { email: string; role: Role }, now = Date.now()) {
  const day = addDay(now);
  if (!(await takeAddPlace(p.tenantId, day)))
    throw new TooManyRequestsError("the workspace's refused member adds for today are used up; try again tomorrow", nextDay(now) - now);
  try {
    const added = await addUnlessTaken(p, normalizeEmail(email), role);
    await giveAddPlaceBack(p.tenantId, day);
    return added;
  } catch (err) {
    if (!(err instanceof EmailUnavailable)) await giveAddPlaceBack(p.tenantId, day);
    throw err;
  }
}

const nextDay = (now: number) => Math.floor(now / 86_400_000 + 1) * 86_400_000;

/** The one answer for an address that signs in elsewhere: it names neither the address nor a workspace. */
class EmailUnavailable extends ConflictError {
  constructor() {
    super('this email cannot be added; ask the person for another address', { code: 'email_unavailable', field: 'email' });
  }
}

async function addUnlessTaken(p: SessionPrincipal, email: string, role: Role) {
  // A taken email is refused before the (deliberately slow) hash; the write still checks it.
  const taken = await findUserByEmail(email);
  // The workspace's own members are no secret to its admins.
  if (taken?.tenant_id === p.tenantId) throw new ConflictError(`${email} is already a member of this workspace`, { field: 'email' });
  const password = temporaryPassword();
  const user =
    !taken &&
    (await createUser(p.tenantId, email, await hashPassword(password), role, {
      mustChangePassword: true,
      // A member's email is no candidate's data: the record names whom the admin added.
      audit: (id) =>
        auditBy(p, 'member.added', memberTarget(id), [
          { field: 'email', after: email },
          { field: 'role', after: role },
        ]),
    }).catch((err: unknown) => {
      // Taken between the look-up and the write: refused like any taken address.
      if (err instanceof ConflictError) return undefined;
      throw err;
    }));
  if (user) return { member: view(user), temporary_password: password };
  await putAudit(p.tenantId, auditBy(p, 'member.add_refused', { type: 'workspace', id: p.tenantId }, [{ field: 'email', after: email }]));
  throw new EmailUnavailable();
}

const memberTarget = (id: string) => ({ type: 'member', id });

const LAST_ADMIN = 'a workspace needs at least one admin: make another member an admin first';

/** What a membership change decides on: the users and the version read with them. */
interface MembershipRead {
  users: User[];
  version: number;
  /** The write found the user gone. */
  gone?: boolean;
}

/**
 * The last-admin rule: a change to `userId` may be made only if it leaves the workspace an
 * admin (`leavesAdmin`, given the target and the other members). A pure rule: the write's
 * condition on the membership version holds it.
 */
export function decideMemberChange(
  read: MembershipRead,
  userId: string,
  leavesAdmin: (target: User, others: User[]) => boolean,
): Decision<{ target: User; version: number }, never> {
  const target = read.gone ? undefined : read.users.find((u) => u.id === userId);
  if (!target) return { refuse: new NotFoundError('member') };
  if (
    !leavesAdmin(
      target,
      read.users.filter((u) => u.id !== userId),
    )
  )
    return { refuse: new ConflictError(LAST_ADMIN) };
  return { write: { target, version: read.version } };
}

/**
 * Apply a membership change that must leave an admin behind: read the users, decide, write
 * conditioned on the version read; a lost race reads again. `write` answers undefined when there
 * is nothing to write.
 */
function guardedChange(
  p: SessionPrincipal,
  userId: string,
  leavesAdmin: (target: User, others: User[]) => boolean,
  write: (target: User, version: number) => Promise<TxOutcome<MembershipParts>> | undefined,
): Promise<User> {
  return decideAndWrite({
    state: readMembership(p.tenantId) as Promise<MembershipRead>,
    decide: (read) => decideMemberChange(read, userId, leavesAdmin),
    write: async ({ target, version }) => ({ outcome: (await write(target, version)) ?? WRITTEN, result: target }),
    again: async (read, lost) => ('refused' in lost && lost.refused === 'user' ? { ...read, gone: true } : readMembership(p.tenantId)),
    busy: 'members are being changed by someone else at the same time; try again',
  });
}

/** A deactivated admin cannot sign in: only an active one keeps the workspace administered. */
const anotherAdmin = (others: User[]) => others.some((u) => u.role === 'admin' && u.deactivated_at === undefined);

export async function changeMemberRole(p: SessionPrincipal, userId: string, role: Role): Promise<Member> {
  const before = await guardedChange(
    p,
    userId,
    (t, others) => role === 'admin' || t.role !== 'admin' || anotherAdmin(others),
    (t, version) =>
      t.role === role
        ? undefined
        : setRole(
            p.tenantId,
            userId,
            role,
            version,
            auditBy(p, 'member.role_changed', memberTarget(userId), [{ field: 'role', before: t.role, after: role }]),
          ),
  );
  await followRole(p, userId, before.role, role);
  return view({ ...before, role });
}

/**
 * A lowered role ends the user's sessions and narrows their tokens to it; a raised one reaches
 * their sessions on the next request. The same role again re-applies it to their sessions and
 * tokens, which finishes a change interrupted after its write.
 */
async function followRole(p: SessionPrincipal, userId: string, from: Role, to: Role) {
  const lowered = from !== to && narrows(from, to);
  await Promise.all([
    lowered ? endSessionsOf(p.tenantId, userId) : setRoleOfSessions(p.tenantId, userId, to),
    // A role that may hold every scope has no token to narrow.
    narrows('admin', to) && sweepTokensOf(p, userId, to),
  ]);
}

/**
 * Ends a member's access once their membership write has committed: their sessions end and their
 * personal tokens are revoked (workspace tokens and webhooks stay). One audit record says what
 * ended, besides the token.revoked record of each token.
 */
async function endAccessOf(p: SessionPrincipal, userId: string, reason: 'member_removed' | 'member_deactivated') {
  const [sessions, tokens] = await Promise.all([endSessionsOf(p.tenantId, userId), sweepTokensOf(p, userId, undefined, reason)]);
  await putAudit(
    p.tenantId,
    auditBy(p, 'member.access_ended', memberTarget(userId), [
      { field: 'reason', after: reason },
      { field: 'sessions_ended', after: sessions },
      { field: 'tokens_revoked', after: tokens },
    ]),
  );
}

/**
 * Deactivate a member: they stay in the workspace (and its audit trail) but cannot sign in, their
 * sessions end and their personal tokens are revoked. The last active admin cannot be deactivated.
 * Asking again for a deactivated member finishes an interrupted deactivation.
 */
export async function deactivateMember(p: SessionPrincipal, userId: string, now = Date.now()): Promise<Member> {
  const at = new Date(now).toISOString();
  let since = at;
  const target = await guardedChange(
    p,
    userId,
    (t, others) => t.role !== 'admin' || t.deactivated_at !== undefined || anotherAdmin(others),
    (t, version) => {
      if (t.deactivated_at !== undefined) {
        since = t.deactivated_at;
        return undefined;
      }
      return setDeactivated(
        p.tenantId,
        userId,
        at,
        version,
        auditBy(p, 'member.deactivated', memberTarget(userId), [{ field: 'deactivated_at', after: at }]),
      );
    },
  );
  await endAccessOf(p, userId, 'member_deactivated');
  return view({ ...target, deactivated_at: since });
}

/** Reactivate a deactivated member: they can sign in again (their revoked tokens stay revoked). */
export async function reactivateMember(p: SessionPrincipal, userId: string): Promise<Member> {
  const target = await guardedChange(
    p,
    userId,
    () => true,
    (t, version) =>
      t.deactivated_at === undefined
        ? undefined
        : setDeactivated(
            p.tenantId,
            userId,
            null,
            version,
            auditBy(p, 'member.reactivated', memberTarget(userId), [{ field: 'deactivated_at', before: t.deactivated_at, after: null }]),
          ),
  );
  const { deactivated_at: _gone, ...active } = target;
  return view(active);
}

/** Removing a member ends their sessions and revokes every personal token they made. */
export async function removeMember(p: SessionPrincipal, userId: string): Promise<{ success: true }> {
  const target = await guardedChange(
    p,
    userId,
    (t, others) => t.role !== 'admin' || anotherAdmin(others),
    (t, version) =>
      deleteUser(p.tenantId, t, version, auditBy(p, 'member.removed', memberTarget(userId), [{ field: 'role', before: t.role }])),
  ).catch(async (err: unknown) => {
    // Removed already: a removal interrupted after its write is finished by asking again.
    if (err instanceof NotFoundError) await Promise.all([endSessionsOf(p.tenantId, userId), sweepTokensOf(p, userId, undefined)]);
    throw err;
  });
  await Promise.all([endAccessOf(p, userId, 'member_removed'), clearAllFailures(target.email)]);
  return { success: true };
}

/** A new temporary password: the user's sessions end and their lockouts are cleared. */
async function member(p: SessionPrincipal, userId: string): Promise<User> {
  const user = await getUser(p.tenantId, userId);
  if (!user) throw new NotFoundError('member');
  return user;
}

export async function resetMemberPassword(p: SessionPrincipal, userId: string) {
  const target = await member(p, userId);
  const password = temporaryPassword();
  const audit = auditBy(p, 'member.password_reset', memberTarget(userId));
  if (!(await setUserPassword(p.tenantId, userId, await hashPassword(password), true, audit))) throw new NotFoundError('member');
  await Promise.all([endSessionsOf(p.tenantId, userId), clearAllFailures(target.email)]);
  return { temporary_password: password };
}

export async function clearMemberLockout(p: SessionPrincipal, userId: string) {
  const target = await member(p, userId);
  const cleared = await clearAllFailures(target.email);
  // The counters are global items, outside any workspace's transaction: recorded once cleared.
  await putAudit(
    p.tenantId,
    auditBy(p, 'member.lockout_cleared', memberTarget(userId), [{ field: 'lockouts', before: cleared, after: 0 }]),
  );
  return { success: true, cleared };
}
