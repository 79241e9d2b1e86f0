import { revokeToken } from '../lib/domain/tokens';
import { apiHandler } from '../lib/http';
import * as tokensApi from '../lib/api/tokens';

export const handler = apiHandler(tokensApi.revokeToken, ({ principal, params }) => revokeToken(principal, params.id));
