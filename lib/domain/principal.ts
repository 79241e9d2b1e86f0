/**
 * Who is calling: an API token (Bearer, /api/v1) or a signed-in workspace user (cookie session,
 * /api). Every domain function takes the principal as its first argument, so the tenant, the
 * actor recorded in history and any role check all come from one place.
 */
import type { Role } from '../store/users';
import type { ActorRef } from '../store/stage-history';
import type { AuditActor, AuditChange, AuditEntry, AuditRequest, AuditTarget } from '../store/audit';

export interface TokenPrincipal {
  kind: 'token';
  tenantId: string;
  tenantSlug: string;
  /** The API token's id (not the token): who made a change, in history. */
  tokenId: string;
  /** The token's name, recorded with its id in history; absent for tokens made before it was kept. */
  tokenName?: string;
  /** The user who made the token; absent for workspace tokens (made before creators were kept, or by the admin CLI). */
  creator?: { id: string; email: string };
  scopes: string[];
  /**
   * The role the token acts with: its creator's current role for a personal token (read by the
   * authorizer), `admin` for a workspace token. The permission table and `maySee` judge it as
   * they judge a session with that role.
   */
  role: Role;
  /** Where the request came from, for the audit log (lib/http.ts sets it). */
  request?: AuditRequest;
}

export interface SessionPrincipal {
  kind: 'session';
  tenantId: string;
  tenantSlug: string;
  userId: string;
  email: string;
  role: Role;
  /** The user signed in with a temporary password and has not changed it yet. */
  mustChangePassword?: true;
  /** Half signed in: the password was right and this two-factor step is still due. */
  twoFactor?: 'verify' | 'enrol';
  /** Where the request came from, for the audit log (lib/http.ts sets it). */
  request?: AuditRequest;
}

export type Principal = TokenPrincipal | SessionPrincipal;

/** The actor a principal's change is recorded under. */
export const actorOf = (p: Principal): ActorRef & { type: 'token' | 'user' } =>
  p.kind === 'token'
    ? { type: 'token', id: p.tokenId, ...(p.tokenName && { name: p.tokenName }) }
    : { type: 'user', id: p.userId, email: p.email };

/** The audit log's actor for a principal: a user with their email, or a token with its name and creator. */
export const auditActorOf = (p: Principal): AuditActor =>
  p.kind === 'token'
    ? { type: 'token', id: p.tokenId, ...(p.tokenName && { name: p.tokenName }), ...(p.creator && { created_by: p.creator }) }
    : { type: 'user', id: p.userId, email: p.email };

/** An audit record before its changes: a rule fills them in from what it read. */
export type AuditBase = Omit<AuditEntry, 'changes'>;

/**
 * The audit record of a change a principal makes: pass it to the store write, which appends its
 * items (lib/store/audit.ts auditPuts) to the write's own transaction.
 */
export const auditBy = (p: Principal, action: string, target: AuditTarget, changes?: AuditChange[]): AuditEntry => ({
  action,
  actor: auditActorOf(p),
  target,
  ...(changes && { changes }),
  ...(p.request && { request: p.request }),
});
