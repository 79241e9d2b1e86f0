/**
 * TOKEN authorizer for /api/v1. A malformed token or a bad checksum is refused without a
 * database read; a known token gets a policy for every route its scopes allow.
 *
 * API Gateway gives a TOKEN authorizer no request id, so its lines carry the route and the
 * Lambda request id, not the correlation id. They never carry the token or its digest.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { isAllowed, policyFor, routeOfArn, tokenRoutes } from './policy';
import { bearerToken, isWellFormedToken, tokenDigest } from './token';
import { logger } from '../logger';
import { findTokenGrant, touchToken } from '../store/tokens';
import { currentRoleOf } from '../store/users';

/** API Gateway turns exactly this error message into a 401. */
const unauthorized = () => new Error('Unauthorized');

/** Log a refusal, with its reason, and return the error API Gateway turns into a 401. */
function denied(reason: 'missing' | 'malformed' | 'unknown' | 'creator_gone', route: string | undefined) {
  logger.info('authorizer denied', { reason, route });
  return unauthorized();
}

export async function authorizer(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const route = routeOfArn(event.methodArn);
  const token = bearerToken(event.authorizationToken);
  if (!token) throw denied('missing', route);
  if (!isWellFormedToken(token)) throw denied('malformed', route);
  const grant = await findTokenGrant(tokenDigest(token));
  // A revoked token's digest is deleted with it: revoked and never-issued look alike here.
  if (!grant) throw denied('unknown', route);
  logger.appendKeys({ tenant_id: grant.tenant_id });
  // A personal token acts with its creator's role as it is now (the one extra read of a cache
  // miss): what the role may call and see is judged at the HTTP boundary, as for a session.
  const creatorRole = grant.kind === 'personal' && grant.created_by ? await currentRoleOf(grant.tenant_id, grant.created_by.id) : undefined;
  if (grant.kind === 'personal' && grant.created_by && !creatorRole) throw denied('creator_gone', route);
  const now = Date.now();
  // An expired token (or a rotated-out secret past its grace) is let through with its end in the
  // context: the HTTP boundary refuses it with a 401 that says it expired and when, which a thrown
  // "Unauthorized" cannot. The boundary compares on every request, so the cached policy never
  // outlives the expiry. It was not used, so last_used_at stays.
  const ended = [grant.expires_at, grant.secret_ends_at].some((at) => at !== undefined && Date.parse(at) <= now);
  if (ended) logger.info('authorizer passed an ended token to be refused', { route, token_id: grant.token_id });
  // Runs once per token per cache period, so last_used_at is at most that stale. Best effort:
  // a throttled write must not turn a valid token away.
  else
    await touchToken(grant.tenant_id, grant.token_id, new Date(now).toISOString()).catch((err: Error) =>
      logger.warn('last_used_at not updated', { token_id: grant.token_id, error: err.name }),
    );
  const policy = policyFor(grant.token_id, event.methodArn, tokenRoutes(grant.scopes), {
    tenantId: grant.tenant_id,
    tenantSlug: grant.tenant_slug,
    tokenId: grant.token_id,
    ...(grant.token_name !== undefined && { tokenName: grant.token_name }),
    // The audit record of what the token does names its creator too, read from this one item.
    ...(grant.created_by && { creatorId: grant.created_by.id, creatorEmail: grant.created_by.email }),
    // The role the token acts with: its creator's for a personal token, an admin's for a workspace token.
    actsAs: creatorRole ?? 'admin',
    scopes: grant.scopes.join(' '),
    ...(grant.expires_at !== undefined && { expiresAt: grant.expires_at }),
    ...(grant.secret_ends_at !== undefined && { secretEndsAt: grant.secret_ends_at }),
  });
  // API Gateway answers 403 for a route the policy leaves out. It caches the policy per token,
  // so this line shows the first such refusal of a cache period, not every one.
  if (!isAllowed(policy.policyDocument, event.methodArn))
    logger.info('authorizer denied', { reason: 'missing_scope', route, token_id: grant.token_id });
  else logger.debug('authorizer allowed', { route, token_id: grant.token_id });
  // Ties the request to the token's API key in the usage plan (per-token throttle and quota).
  return grant.usage_key ? { ...policy, usageIdentifierKey: grant.usage_key } : policy;
}
