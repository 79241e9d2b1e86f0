/**
 * TOKEN authorizer for /api/v1. A malformed token or a bad checksum is refused without a
 * database read; a known token gets a policy for every route its scopes allow.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { policyFor, tokenRoutes } from '../lib/auth/policy';
import { isWellFormedToken, tokenDigest } from '../lib/auth/token';
import { findTokenGrant, touchToken } from '../lib/store/tokens';

/** API Gateway turns exactly this error message into a 401. */
const unauthorized = () => new Error('Unauthorized');

export async function handler(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  // The scheme is case-insensitive (RFC 7235).
  const match = /^Bearer +(\S+)$/i.exec(event.authorizationToken ?? '');
  const token = match?.[1];
  if (!token || !isWellFormedToken(token)) throw unauthorized();
  const grant = await findTokenGrant(tokenDigest(token));
  if (!grant) throw unauthorized();
  // Runs once per token per cache period, so last_used_at is at most that stale. Best effort:
  // a throttled write must not turn a valid token away.
  await touchToken(grant.tenant_id, grant.token_id, new Date().toISOString()).catch((err: Error) =>
    console.warn(JSON.stringify({ level: 'WARN', message: 'last_used_at not updated', error: err.name })),
  );
  const result = policyFor(grant.token_id, event.methodArn, tokenRoutes(grant.scopes), {
    tenantId: grant.tenant_id,
    tenantSlug: grant.tenant_slug,
    tokenId: grant.token_id,
    scopes: grant.scopes.join(' '),
  });
  // Ties the request to the token's API key in the usage plan (per-token throttle and quota).
  return grant.usage_key ? { ...result, usageIdentifierKey: grant.usage_key } : result;
}
