/** Workspace identity: login, logout, and API-token management for signed-in users. */
import { DUMMY_HASH, hashPassword, verifyPassword } from '../auth/password';
import { newSessionId, sessionDigest } from '../auth/session';
import { ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError } from '../errors';
import type { Scope } from '../model';
import type { SessionInfo } from '../schemas';
import type * as z from 'zod/mini';
import { clearFailures, reserveAttempt } from '../store/login-failures';
import { deleteSession, putSession } from '../store/sessions';
import { getTenant, getTenantBySlug } from '../store/tenants';
import { createToken, listTokens, revokeToken, type CreatedToken, type TokenListing } from '../store/tokens';
import { createUser, findUserByEmail, normalizeEmail, type Role, type User } from '../store/users';

export interface SessionPrincipal {
  tenantId: string;
  tenantSlug: string;
  userId: string;
  email: string;
  role: Role;
}

export interface LoginResult {
  sessionId: string;
  data: z.infer<typeof SessionInfo>;
}

/** One message for a wrong email and a wrong password alike. */
const BAD_LOGIN = 'email or password is incorrect';

export async function login(email: string, password: string, now = Date.now()): Promise<LoginResult> {
  const normalized = normalizeEmail(email);
  // Counted before the (slow) password check, so parallel guesses cannot exceed the limit.
  const lockedForMs = await reserveAttempt(normalized, now);
  if (lockedForMs > 0) throw new TooManyRequestsError('too many failed logins; try again later', lockedForMs);
  const user = await findUserByEmail(normalized);
  // Verify even without a user, so both failures take the same time.
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  const tenant = user && ok ? await getTenant(user.tenant_id) : undefined;
  if (!user || !tenant) throw new UnauthorizedError(BAD_LOGIN);
  await clearFailures(normalized);
  const sessionId = newSessionId();
  const at = new Date(now).toISOString();
  await putSession(sessionDigest(sessionId), {
    tenant_id: tenant.id,
    tenant_slug: tenant.slug,
    user_id: user.id,
    email: user.email,
    role: user.role,
    created_at: at,
    last_seen_at: at,
  });
  return {
    sessionId,
    data: { user: { id: user.id, email: user.email, role: user.role }, tenant: { slug: tenant.slug, name: tenant.name } },
  };
}

export const logout = (sessionId: string) => deleteSession(sessionDigest(sessionId));

export async function currentUser(p: SessionPrincipal): Promise<LoginResult['data']> {
  const tenant = await getTenant(p.tenantId);
  if (!tenant) throw new UnauthorizedError('session is no longer valid');
  return { user: { id: p.userId, email: p.email, role: p.role }, tenant: { slug: tenant.slug, name: tenant.name } };
}

export async function mintToken(p: SessionPrincipal, name: string, scopes: Scope[]): Promise<CreatedToken> {
  if (scopes.includes('*') && p.role !== 'admin') throw new ForbiddenError('only admins may grant the * scope');
  return createToken({ id: p.tenantId, slug: p.tenantSlug }, name, [...new Set(scopes)]);
}

export const tokensOf = (p: SessionPrincipal): Promise<TokenListing[]> => listTokens(p.tenantId);

export async function revoke(p: SessionPrincipal, tokenId: string): Promise<{ success: true }> {
  if (!(await revokeToken(p.tenantId, tokenId))) throw new NotFoundError('token');
  return { success: true };
}

/** For the admin CLI: a user in a tenant found by slug. */
export async function addUser(slug: string, email: string, password: string, role: Role): Promise<User> {
  const tenant = await getTenantBySlug(slug);
  return createUser(tenant.id, email, await hashPassword(password), role);
}

