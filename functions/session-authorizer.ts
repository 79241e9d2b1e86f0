/**
 * REQUEST authorizer for the workspace routes under /api: reads the session cookie, enforces
 * the idle timeout and the absolute lifetime, and slides the idle window. Its results are not
 * cached, so a logout or an expiry takes effect on the very next request.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { policyFor, sessionRoutes } from '../lib/auth/policy';
import { sessionDigest, sessionIdFrom, sessionState, TOUCH_INTERVAL_MS } from '../lib/auth/session';
import { header } from '../lib/headers';
import { getSession, touchSession } from '../lib/store/sessions';

const unauthorized = () => new Error('Unauthorized');

export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const id = sessionIdFrom(header(event, 'cookie'));
  if (!id) throw unauthorized();
  const digest = sessionDigest(id);
  const session = await getSession(digest);
  const now = Date.now();
  // An expired session is refused here; DynamoDB TTL removes the item later.
  if (!session || sessionState(session, now) !== 'active') throw unauthorized();
  if (now - Date.parse(session.last_seen_at) >= TOUCH_INTERVAL_MS) {
    // Best effort: a throttled write must not end a valid session.
    await touchSession(digest, new Date(now).toISOString()).catch((err: Error) =>
      console.warn(JSON.stringify({ level: 'WARN', message: 'last_seen_at not updated', error: err.name })),
    );
  }
  return policyFor(session.user_id, event.methodArn, sessionRoutes(), {
    tenantId: session.tenant_id,
    tenantSlug: session.tenant_slug,
    userId: session.user_id,
    email: session.email,
    role: session.role,
  });
}
