/** REQUEST authorizer for the workspace routes under /api (session cookie); the rules are in lib/auth/session-authorizer.ts. */
import { sessionAuthorizer } from '../lib/auth/session-authorizer';
import { lambdaHandler } from '../lib/lambda';

export const handler = lambdaHandler(sessionAuthorizer, { resetKeys: true });
