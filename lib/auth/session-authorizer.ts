/**
 * REQUEST authorizer for the workspace routes under /api: reads the session cookie, enforces
 * the idle timeout and the absolute lifetime, and slides the idle window. Its results are not
 * cached, so a logout or an expiry takes effect on the very next request.
 *
 * Its log lines carry the API Gateway request id as correlation id; never the cookie, the
 * session id or its digest, nor the user's email.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { policyFor, routeOfArn, sessionRoutes } from './policy';
import { sessionDigest, sessionIdFrom, sessionState, TOUCH_INTERVAL_MS } from './session';
import { header } from '../headers';
import { logger } from '../logger';
import { getSession, touchSession } from '../store/sessions';

const unauthorized = () => new Error('Unauthorized');

function denied(reason: 'missing' | 'unknown' | 'expired', route: string | undefined) {
  logger.info('authorizer denied', { reason, route });
  return unauthorized();
}

export async function sessionAuthorizer(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  logger.setCorrelationId(event.requestContext?.requestId);
  const route = routeOfArn(event.methodArn);
  const id = sessionIdFrom(header(event, 'cookie'));
  if (!id) throw denied('missing', route);
  const digest = sessionDigest(id);
  const session = await getSession(digest);
  const now = Date.now();
  if (!session) throw denied('unknown', route);
  // An expired session (a half-signed-in one after 15 minutes) is refused here; DynamoDB TTL removes the item later.
  if (sessionState(session, now) !== 'active') throw denied('expired', route);
  logger.appendKeys({ tenant_id: session.tenant_id });
  if (now - Date.parse(session.last_seen_at) >= TOUCH_INTERVAL_MS) {
    // Best effort: a throttled write must not end a valid session.
    await touchSession(digest, new Date(now).toISOString()).catch((err: Error) =>
      logger.warn('last_seen_at not updated', { user_id: session.user_id, error: err.name }),
    );
  }
  logger.debug('authorizer allowed', { route, user_id: session.user_id });
  // A half-signed-in session reaches only its two-factor step: refused here, before any function runs.
  return policyFor(session.user_id, event.methodArn, sessionRoutes(session.two_factor), {
    tenantId: session.tenant_id,
    tenantSlug: session.tenant_slug,
    userId: session.user_id,
    email: session.email,
    role: session.role,
    ...(session.must_change_password && { mustChangePassword: 'true' }),
    ...(session.two_factor && { twoFactor: session.two_factor }),
  });
}
