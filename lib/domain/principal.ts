/**
 * Who is calling: an API token (Bearer, /api/v1) or a signed-in workspace user (cookie session,
 * /api). Every domain function takes the principal as its first argument, so the tenant, the
 * actor recorded in history and any role check all come from one place.
 */
import type { Role } from '../store/users';
import type { ActorRef } from '../store/stage-history';

export interface TokenPrincipal {
  kind: 'token';
  tenantId: string;
  tenantSlug: string;
  /** The API token's id (not the token): who made a change, in history. */
  tokenId: string;
  /** The token's name, recorded with its id in history; absent for tokens made before it was kept. */
  tokenName?: string;
  scopes: string[];
}

export interface SessionPrincipal {
  kind: 'session';
  tenantId: string;
  tenantSlug: string;
  userId: string;
  email: string;
  role: Role;
}

export type Principal = TokenPrincipal | SessionPrincipal;

/** The actor a principal's change is recorded under. */
export const actorOf = (p: Principal): ActorRef =>
  p.kind === 'token'
    ? { type: 'token', id: p.tokenId, ...(p.tokenName && { name: p.tokenName }) }
    : { type: 'user', id: p.userId, email: p.email };
