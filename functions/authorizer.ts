/** TOKEN authorizer for /api/v1 (Bearer API tokens); the rules are in lib/auth/authorizer.ts. */
import { authorizer } from '../lib/auth/authorizer';
import { lambdaHandler } from '../lib/lambda';

export const handler = lambdaHandler(authorizer, { resetKeys: true });
