/**
 * What each workspace role may do, in one place: the token scopes a role may hold, and the
 * token rules that follow from them. The domain checks (lib/domain/tokens.ts, members.ts) and the
 * console (which offers only these scopes) read it; route roles stay in lib/routes.ts.
 *
 * Pure and dependency-free beyond lib/model, so the console bundles it as it is.
 */
import { SCOPES, type Role, type Scope, type TokenKind } from './model';

/** Every scope but `*`: what `*` stands for today. */
const NAMED_SCOPES = SCOPES.filter((s) => s !== '*');

/**
 * The scopes each role may put on a token. A member does the recruiting work the console opens
 * to members (candidates, imports, requisitions, stage moves, the pipeline); erasure, like every
 * admin-only console action, and `*` (which also grants scopes added later) are for admins.
 */
const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = {
  admin: SCOPES,
  member: NAMED_SCOPES.filter((s) => s !== 'candidates:erase'),
};

/** The scopes a token made by someone with this role may hold. */
export const scopesOf = (role: Role): readonly Scope[] => ROLE_SCOPES[role];

/** The asked scopes that the role may not grant, in the order asked; empty when all are allowed. */
export const scopesBeyond = (role: Role, scopes: readonly Scope[]): Scope[] => scopes.filter((s) => !ROLE_SCOPES[role].includes(s));

/**
 * A token's scopes cut down to what the role may hold, in the token's order: `*` becomes the
 * role's named scopes when the role may not hold `*` itself. Empty when nothing is left.
 */
export function narrowTo(role: Role, scopes: readonly Scope[]): Scope[] {
  const allowed = ROLE_SCOPES[role];
  const wanted = scopes.includes('*') && !allowed.includes('*') ? [...new Set([...scopes, ...NAMED_SCOPES])] : scopes;
  return wanted.filter((s) => allowed.includes(s));
}

/** A change from one role to another takes away some scope: the user's tokens must be narrowed. */
export const narrows = (from: Role, to: Role): boolean => scopesBeyond(to, ROLE_SCOPES[from]).length > 0;

/**
 * Whether someone with this role may revoke a token: their own personal token always; someone
 * else's, or a workspace token (whoever made it), only as an admin.
 */
export const mayRevoke = (role: Role, userId: string, createdBy: string | undefined, kind: TokenKind = 'personal'): boolean =>
  role === 'admin' || (kind === 'personal' && createdBy !== undefined && createdBy === userId);
