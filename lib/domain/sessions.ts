/** Workspace sessions: sign in, sign out, the signed-in user, and a user's own password change. */
import { DUMMY_HASH, hashPassword, verifyPassword } from '../auth/password';
import { newSessionId, sessionDigest } from '../auth/session';
import { TooManyRequestsError, UnauthorizedError, ValidationError } from '../errors';
import type { SessionInfo as SessionInfoSchema } from '../schemas';
import type * as z from 'zod/mini';
import { logger } from '../logger';
import { emitMetric } from '../metrics';
import { clearFailures, LOCK_MS, reserveAttempt } from '../store/login-failures';
// As a namespace: the store's getSession reads a session item, this module's answers the route.
import * as sessionStore from '../store/sessions';
import { getTenant, type Tenant } from '../store/tenants';
import { getTwoFactorPolicy } from '../store/two-factor';
import { signInStep, type TwoFactorStep } from './two-factor';
import { findUserByEmail, getUser, normalizeEmail, setUserPassword, type User } from '../store/users';
import { auditBy, type SessionPrincipal } from './principal';
import { auditDecoy, putAudit, type AuditEntry, type AuditRequest } from '../store/audit';

export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/** A new session: its id (for the cookie, never stored) and what the console is told about it. */
export interface LoginResult {
  sessionId: string;
  session: SessionInfo;
}

/** One message for a wrong email and a wrong password alike. */
const BAD_LOGIN = 'email or password is incorrect';

export const LOCKED = 'too many failed sign-ins from this address; try again later';
/** Said only after the right password: the account holder learns why, nobody else learns anything. */
const DEACTIVATED = 'this account is deactivated; ask a workspace admin to reactivate it';

/** Takes no principal: it makes one (the session the authorizer reads from the cookie afterwards). */
export async function login(
  email: string,
  password: string,
  address: string,
  now = Date.now(),
  request?: AuditRequest,
): Promise<LoginResult> {
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
    // Into the account's workspace when the email is a member's; an unknown email belongs to no
    // workspace (the log line and LoginsFailed count it). Never the password.
    if (user) {
      await putAudit(
        user.tenant_id,
        signInAudit(user, 'session.sign_in_failed', request, [
          { field: 'reason', after: 'bad_credentials' },
          ...(lastChance ? [{ field: 'lockout_started', after: true }] : []),
        ]),
      );
    } else await auditDecoy();
    throw new UnauthorizedError(BAD_LOGIN);
  }
  if (user.deactivated_at !== undefined) throw await deactivatedSignIn(user, request);
  const step = signInStep(await getTwoFactorPolicy(tenant.id), user);
  // Before a code is due the count goes on: a password known to an attacker buys them no fresh
  // guesses at the code. It is cleared when the second step succeeds.
  if (step !== 'verify') await clearFailures(normalized, address);
  const sessionId = await openSession(
    user,
    tenant,
    now,
    step
      ? signInAudit(user, 'session.two_factor_due', request, [{ field: 'step', after: step }])
      : signInAudit(user, 'session.signed_in', request),
    step,
  );
  logger.info(step ? 'password accepted' : 'login succeeded', { tenant_id: tenant.id, user_id: user.id, ...(step && { step }) });
  return { sessionId, session: sessionInfo(user, tenant, step) };
}

/**
 * Write a session for the user (half signed in while `step` is due), checking in the same
 * transaction that the user is still active; a user deactivated since is refused as such.
 */
async function openSession(user: User, tenant: Tenant, now: number, audit: AuditEntry, step?: TwoFactorStep): Promise<string> {
  const sessionId = newSessionId();
  const at = new Date(now).toISOString();
  const put = sessionStore.putSession(
    sessionDigest(sessionId),
    {
      tenant_id: tenant.id,
      tenant_slug: tenant.slug,
      user_id: user.id,
      email: user.email,
      role: user.role,
      created_at: at,
      last_seen_at: at,
      ...(user.must_change_password && { must_change_password: true }),
      ...(step && { two_factor: step }),
    },
    audit,
  );
  // Deactivated (or removed) after the check above: the session's write checks it again.
  await put.catch(async (err: unknown) => {
    throw err instanceof sessionStore.UserInactiveError ? await deactivatedSignIn(user, audit.request) : err;
  });
  return sessionId;
}

/**
 * The two-factor step is done: the half-signed-in session makes way for a full one under a new id
 * (whoever saw the first cookie holds nothing), recorded as the sign-in with how it was made.
 */
export async function completeSignIn(p: SessionPrincipal, pendingSessionId: string, changes: AuditEntry['changes'], now = Date.now()) {
  const [user, tenant] = await Promise.all([getUser(p.tenantId, p.userId), getTenant(p.tenantId)]);
  if (!user || !tenant) throw new UnauthorizedError('session is no longer valid');
  const sessionId = await openSession(user, tenant, now, signInAudit(user, 'session.signed_in', p.request, changes));
  await sessionStore.deleteSession(sessionDigest(pendingSessionId));
  logger.info('login succeeded', { tenant_id: tenant.id, user_id: user.id });
  return { sessionId, session: sessionInfo(user, tenant) };
}

/** A deactivated account's sign-in: refused, and recorded in its workspace. */
async function deactivatedSignIn(user: { id: string; email: string; tenant_id: string }, request: AuditRequest | undefined) {
  logger.info('login failed', { reason: 'deactivated', tenant_id: user.tenant_id, user_id: user.id });
  emitMetric('LoginsFailed');
  await putAudit(user.tenant_id, signInAudit(user, 'session.sign_in_failed', request, [{ field: 'reason', after: 'deactivated' }]));
  return new UnauthorizedError(DEACTIVATED);
}

/** A sign-in's record: the account is both the actor and the target. */
export const signInAudit = (
  user: { id: string; email: string },
  action: string,
  request: AuditRequest | undefined,
  changes?: AuditEntry['changes'],
): AuditEntry => ({
  action,
  actor: { type: 'user', id: user.id, email: user.email },
  target: { type: 'member', id: user.id },
  ...(changes && { changes }),
  ...(request && { request }),
});

/**
 * A refused sign-in (or password check): a log line and LoginsFailed; the one that used up the
 * last allowed attempt also starts a lockout (`lockout started`, Lockouts). The user id only when
 * the email belongs to a user; never the email, the password or the client address.
 */
export function loginFailed(
  reason: 'bad_credentials' | 'wrong_code' | 'locked',
  user?: { id: string; tenant_id: string },
  lastChance = false,
) {
  const who = user ? { tenant_id: user.tenant_id, user_id: user.id } : {};
  logger.info('login failed', { reason, ...who });
  emitMetric('LoginsFailed');
  if (lastChance) {
    logger.info('lockout started', { ...who, lock_ms: LOCK_MS });
    emitMetric('Lockouts');
  }
}

const sessionInfo = (user: User, tenant: { slug: string; name: string }, step?: TwoFactorStep): SessionInfo => ({
  user: {
    id: user.id,
    email: user.email,
    role: user.role,
    must_change_password: user.must_change_password,
    two_factor_enabled: user.two_factor_enabled,
    time_zone: user.time_zone ?? null,
  },
  tenant: { slug: tenant.slug, name: tenant.name },
  ...(step && { pending: step === 'verify' ? 'two_factor' : 'two_factor_enrolment' }),
});

/** Ends the session the cookie names (the principal is that session's); without a cookie there is nothing to end. */
export async function logout(p: SessionPrincipal, sessionId: string | undefined): Promise<{ success: true }> {
  if (sessionId) {
    await sessionStore.deleteSession(sessionDigest(sessionId), {
      tenantId: p.tenantId,
      entry: auditBy(p, 'session.signed_out', { type: 'member', id: p.userId }),
    });
    logger.info('logout');
  }
  return { success: true };
}

export async function getSession(p: SessionPrincipal): Promise<SessionInfo> {
  const [tenant, user] = await Promise.all([getTenant(p.tenantId), getUser(p.tenantId, p.userId)]);
  if (!tenant || !user) throw new UnauthorizedError('session is no longer valid');
  return sessionInfo(user, tenant, p.twoFactor);
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
    // Someone with the session guessed at the password: the account's own record, as a failed sign-in.
    await putAudit(
      p.tenantId,
      auditBy(p, 'member.password_change_failed', { type: 'member', id: p.userId }, [
        { field: 'reason', after: 'bad_credentials' },
        ...(lastChance ? [{ field: 'lockout_started', after: true }] : []),
      ]),
    );
    throw new ValidationError('current_password is incorrect', { field: 'current_password' });
  }
  await clearFailures(p.email, address);
  if (body.new_password === body.current_password)
    throw new ValidationError('new_password must differ from the current password', { field: 'new_password' });
  const audit = auditBy(p, 'member.password_changed', { type: 'member', id: p.userId });
  if (!(await setUserPassword(p.tenantId, p.userId, await hashPassword(body.new_password), false, audit))) {
    throw new UnauthorizedError('session is no longer valid');
  }
  await Promise.all([
    sessionStore.endSessionsOf(p.tenantId, p.userId, sessionDigest(currentSession)),
    sessionStore.clearMustChangePassword(sessionDigest(currentSession)),
  ]);
  return { success: true };
}
