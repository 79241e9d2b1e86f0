import { rotateToken } from '../lib/domain/token-rotation';
import { apiHandler, data } from '../lib/http';
import * as tokensApi from '../lib/api/tokens';

export const handler = apiHandler(tokensApi.rotateToken, async ({ principal, params, body }) =>
  data(await rotateToken(principal, params.id, body)),
);
