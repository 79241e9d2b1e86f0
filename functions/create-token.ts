import { createToken } from '../lib/domain/tokens';
import { apiHandler, data } from '../lib/http';
import * as tokensApi from '../lib/api/tokens';

export const handler = apiHandler(tokensApi.createToken, async ({ principal, body }) => data(await createToken(principal, body)));
