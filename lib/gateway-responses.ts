/**
 * Bodies of the responses API Gateway produces itself (no handler runs). The CDK stack turns
 * these into gateway responses and the local gateway answers with the same bodies, so a
 * client sees `{ error, code }` whichever side refused the request.
 */
import type { ErrorCode } from './errors';
import { RATE_LIMITED } from './rate-limits';

export const GATEWAY_ERRORS = {
  /** No credentials (Authorization header or session cookie), or the authorizer threw "Unauthorized". */
  unauthorized: { status: 401, error: 'Unauthorized: missing, invalid or expired credentials', code: 'unauthorized' },
  /** The authorizer's policy does not allow this route: the token lacks its scope. */
  accessDenied: { status: 403, error: 'Forbidden: the token lacks the scope this route requires', code: 'missing_scope' },
  /** API Gateway reports an unknown path or method as MISSING_AUTHENTICATION_TOKEN; we say 404. */
  notFound: { status: 404, error: 'Not found', code: 'not_found' },
  /** The usage plan's (per token) or the stage's throttle; infra/constructs/rate-limits.ts answers it, with `code` and Retry-After. */
  throttled: RATE_LIMITED.throttled,
  /** The authorizer itself failed (not a refusal). */
  authorizerFailure: { status: 500, error: 'Internal server error', code: 'internal_error' },
  default4xx: { error: 'Bad request', code: 'invalid_request' },
  default5xx: { error: 'Internal server error', code: 'internal_error' },
  requestTooLarge: { status: 413, error: 'Request body too large', code: 'payload_too_large' },
} as const satisfies Record<string, { status?: number; error: string; code: ErrorCode }>;

/** The JSON body of a gateway refusal. */
export const gatewayErrorBody = (e: { error: string; code: ErrorCode }) => JSON.stringify({ error: e.error, code: e.code });
