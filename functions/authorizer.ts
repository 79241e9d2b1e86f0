/**
 * TOKEN authorizer for /api/v1. A malformed token or a bad checksum is refused without a
 * database read; a known token gets a policy for every route its scopes allow.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { policyFor } from '../lib/auth/policy';
import { isWellFormedToken, tokenDigest } from '../lib/auth/token';
import { findTokenGrant } from '../lib/store/tokens';

/** API Gateway turns exactly this error message into a 401. */
const unauthorized = () => new Error('Unauthorized');

export async function handler(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const match = /^Bearer ([^\s]+)$/.exec(event.authorizationToken ?? '');
  const token = match?.[1];
  if (!token || !isWellFormedToken(token)) throw unauthorized();
  const grant = await findTokenGrant(tokenDigest(token));
  if (!grant) throw unauthorized();
  return policyFor(grant.token_id, event.methodArn, grant.scopes, {
    tenantId: grant.tenant_id,
    tenantSlug: grant.tenant_slug,
    tokenId: grant.token_id,
    scopes: grant.scopes.join(' '),
  });
}
