/**
 * The workspace's members: adding, roles, removal, password resets, lockouts.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import { IdParam, Role, Success, dataOf, timestamp } from './fields';
import { DOCS, type Route } from './route';
import { LEGACY_MEMBER_ROLE, ROLES, roleFrom } from '../model';

// `member`, the one role before roles were split, stays accepted as the recruiter it now is.
const roleField = z.pipe(
  z.enum([...ROLES, LEGACY_MEMBER_ROLE], { error: `role must be one of ${ROLES.join(', ')}` }),
  z.transform((r): Role => roleFrom(r) ?? 'recruiter'),
);

export const Member = z.object({
  id: z.uuid(),
  email: z.string(),
  role: Role,
  created_at: timestamp,
  must_change_password: z.boolean(),
  /** When an admin deactivated the member (they cannot sign in); null while active. */
  deactivated_at: z.nullable(timestamp),
  /** The member signs in with a second factor (an admin can reset it: POST /api/members/{id}/reset-two-factor). */
  two_factor_enabled: z.boolean(),
  /** The IANA zone the member set for themselves; null: none. A recruiter booking them reads it. */
  time_zone: z.nullable(z.string()),
});
export type Member = z.infer<typeof Member>;

export const AddMemberBody = z.strictObject({
  email: z.email({ error: 'email must be an email address' }).check(z.maxLength(254, { error: 'email must be at most 254 characters' })),
  role: roleField,
});
export type AddMemberBody = z.output<typeof AddMemberBody>;
export const AddedMember = dataOf(z.object({ member: Member, temporary_password: z.string() }));

export const ChangeRoleBody = z.strictObject({ role: roleField });
export const TemporaryPassword = dataOf(z.object({ temporary_password: z.string() }));
export const LockoutCleared = z.object({ success: z.boolean(), cleared: z.int() });

// ---- routes ------------------------------------------------------------------------------

export const listMembers = {
  method: 'GET',
  path: '/api/members',
  handler: 'list-members',
  auth: 'session',
  access: 'read',
  summary: DOCS && "List the workspace's members and their roles",
  status: 200,
  response: dataOf(z.array(Member)),
} as const satisfies Route;

export const addMember = {
  method: 'POST',
  path: '/api/members',
  handler: 'add-member',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Add a member; the temporary password is shown only here',
  body: AddMemberBody,
  ...(DOCS && {
    errors: {
      409: 'Already a member (conflict), or an address that cannot be added (email_unavailable)',
      429: "The day's refused adds are used up",
    },
  }),
  status: 201,
  response: AddedMember,
} as const satisfies Route;

export const changeMemberRole = {
  method: 'PATCH',
  path: '/api/members/{id}',
  handler: 'change-member-role',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: "Change a member's role",
  params: IdParam,
  body: ChangeRoleBody,
  ...(DOCS && { errors: { 409: 'The workspace would be left without an admin' } }),
  status: 200,
  response: dataOf(Member),
} as const satisfies Route;

export const removeMember = {
  method: 'DELETE',
  path: '/api/members/{id}',
  handler: 'remove-member',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Remove a member; their sessions end at once',
  params: IdParam,
  ...(DOCS && { errors: { 409: 'The workspace would be left without an admin' } }),
  status: 200,
  response: Success,
} as const satisfies Route;

export const resetMemberPassword = {
  method: 'POST',
  path: '/api/members/{id}/reset-password',
  handler: 'reset-member-password',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: "Reset a member's password; the temporary password is shown only here",
  params: IdParam,
  status: 200,
  response: TemporaryPassword,
} as const satisfies Route;

export const clearMemberLockout = {
  method: 'DELETE',
  path: '/api/members/{id}/lockout',
  handler: 'clear-member-lockout',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: "Clear a member's sign-in lockouts",
  params: IdParam,
  status: 200,
  response: LockoutCleared,
} as const satisfies Route;

export const deactivateMember = {
  method: 'POST',
  path: '/api/members/{id}/deactivate',
  handler: 'deactivate-member',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Deactivate a member: kept for the audit trail, cannot sign in; their sessions end and their personal tokens are revoked',
  params: IdParam,
  ...(DOCS && { errors: { 409: 'The workspace would be left without an active admin' } }),
  status: 200,
  response: dataOf(Member),
} as const satisfies Route;

export const reactivateMember = {
  method: 'POST',
  path: '/api/members/{id}/reactivate',
  handler: 'reactivate-member',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Reactivate a deactivated member: they can sign in again',
  params: IdParam,
  status: 200,
  response: dataOf(Member),
} as const satisfies Route;
