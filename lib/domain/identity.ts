/** Workspace identity: login, logout, and API-token management for signed-in users. */
import { DUMMY_HASH, hashPassword, verifyPassword } from '../auth/password';
import { newSessionId, sessionDigest } from '../auth/session';
import { ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError, ValidationError } from '../errors';
import type { Scope } from '../model';
import type { SessionInfo } from '../schemas';
import type * as z from 'zod/mini';
import { logger } from '../logger';
import { emitMetric } from '../metrics';
import { clearFailures, LOCK_MS, reserveAttempt } from '../store/login-failures';
import { deleteSession, endSessionsOf, putSession } from '../store/sessions';
import { getTenant, getTenantBySlug } from '../store/tenants';
import { createUsageKey, deleteUsageKey } from '../auth/usage-keys';
import { createToken, listTokens, revokeToken, type CreatedToken, type TokenListing } from '../store/tokens';
import { createUser, findUserByEmail, getUser, normalizeEmail, setUserPassword, type Role, type User } from '../store/users';

import type { SessionPrincipal } from './principal';
export type { SessionPrincipal } from './principal';

export interface LoginResult {
  sessionId: string;
  data: z.infer<typeof SessionInfo>;
}

/** One message for a wrong email and a wrong password alike. */
const BAD_LOGIN = 'email or password is incorrect';

const LOCKED = 'too many failed sign-ins from this address; try again later';

export async function login(email: string, password: string, address: string, now = Date.now()): Promise<LoginResult> {
  const normalized = normalizeEmail(email);
  // Counted before the (slow) password check, so parallel guesses cannot exceed the limit.
  const { lockedForMs, lastChance } = await reserveAttempt(normalized, address, now);
  if (lockedForMs > 0) {
    // Neither the email nor the address is logged: the user is not looked up for a locked sign-in.
    loginFailed('locked');
    throw new TooManyRequestsError(LOCKED, lockedForMs);
  }
  const user = await findUserByEmail(normalized);
  // Verify even without a user, so both failures take the same time.
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  const tenant = user && ok ? await getTenant(user.tenant_id) : undefined;
  if (!user || !tenant) {
    loginFailed('bad_credentials', user, lastChance);
    throw new UnauthorizedError(BAD_LOGIN);
  }
  await clearFailures(normalized, address);
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
  logger.info('login succeeded', { tenant_id: tenant.id, user_id: user.id });
  return { sessionId, data: sessionInfo(user, tenant) };
}

/**
 * A refused sign-in (or password check): a log line and LoginsFailed; the one that used up the
 * last allowed attempt also starts a lockout (`lockout started`, Lockouts). The user id only when
 * the email belongs to a user; never the email, the password or the client address.
 */
function loginFailed(reason: 'bad_credentials' | 'locked', user?: { id: string; tenant_id: string }, lastChance = false) {
  const who = user ? { tenant_id: user.tenant_id, user_id: user.id } : {};
  logger.info('login failed', { reason, ...who });
  emitMetric('LoginsFailed');
  if (lastChance) {
    logger.info('lockout started', { ...who, lock_ms: LOCK_MS });
    emitMetric('Lockouts');
  }
}

const sessionInfo = (user: User, tenant: { slug: string; name: string }): LoginResult['data'] => ({
  user: { id: user.id, email: user.email, role: user.role, must_change_password: user.must_change_password },
  tenant: { slug: tenant.slug, name: tenant.name },
});

export async function logout(sessionId: string): Promise<void> {
  await deleteSession(sessionDigest(sessionId));
  logger.info('logout');
}

export async function currentUser(p: SessionPrincipal): Promise<LoginResult['data']> {
  const [tenant, user] = await Promise.all([getTenant(p.tenantId), getUser(p.tenantId, p.userId)]);
  if (!tenant || !user) throw new UnauthorizedError('session is no longer valid');
  return sessionInfo(user, tenant);
}

/**
 * A user changes their own password. The current one is checked and throttled like a sign-in (a
 * stolen session must not become a way to guess it); every other session of the user ends.
 */
export async function changePassword(
  p: SessionPrincipal,
  body: { current_password: string; new_password: string },
  currentSession: string,
  address: string,
  now = Date.now(),
): Promise<{ success: true }> {
  const { lockedForMs, lastChance } = await reserveAttempt(p.email, address, now);
  if (lockedForMs > 0) {
    loginFailed('locked', { id: p.userId, tenant_id: p.tenantId });
    throw new TooManyRequestsError(LOCKED, lockedForMs);
  }
  const user = await getUser(p.tenantId, p.userId);
  if (!user) throw new UnauthorizedError('session is no longer valid');
  if (!(await verifyPassword(body.current_password, user.password_hash))) {
    loginFailed('bad_credentials', user, lastChance);
    throw new ValidationError('current_password is incorrect', { field: 'current_password' });
  }
  await clearFailures(p.email, address);
  if (body.new_password === body.current_password) throw new ValidationError('new_password must differ from the current password', { field: 'new_password' });
  if (!(await setUserPassword(p.tenantId, p.userId, await hashPassword(body.new_password), false))) {
    throw new UnauthorizedError('session is no longer valid');
  }
  await endSessionsOf(p.tenantId, p.userId, sessionDigest(currentSession));
  return { success: true };
}

// API token verbs: create, list, revoke, as in the routes and the store; the `ApiToken` names keep
// them apart from the store's createToken/listTokens/revokeToken that they call.
export async function createApiToken(p: SessionPrincipal, name: string, scopes: Scope[]): Promise<CreatedToken> {
  if (scopes.includes('*') && p.role !== 'admin') throw new ForbiddenError('only admins may grant the * scope', { field: 'scopes' });
  const created = await createToken({ id: p.tenantId, slug: p.tenantSlug }, name, [...new Set(scopes)], (id) => createUsageKey(id, p.tenantId));
  // The id and the scope names; never the token, its digest or its name (free text).
  logger.info('token created', { token_id: created.id, scopes: created.scopes, user_id: p.userId });
  return created;
}

export const listApiTokens = (p: SessionPrincipal): Promise<TokenListing[]> => listTokens(p.tenantId);

export async function revokeApiToken(p: SessionPrincipal, tokenId: string): Promise<{ success: true }> {
  const revoked = await revokeToken(p.tenantId, tokenId);
  if (!revoked) throw new NotFoundError('token');
  await deleteUsageKey(revoked.usage_key_id);
  logger.info('token revoked', { token_id: tokenId, user_id: p.userId });
  return { success: true };
}

/** For the admin CLI: a user in a tenant found by slug. */
export async function addUser(slug: string, email: string, password: string, role: Role): Promise<User> {
  const tenant = await getTenantBySlug(slug);
  return createUser(tenant.id, email, await hashPassword(password), role);
}

