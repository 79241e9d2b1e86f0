import { listTokens } from '../lib/domain/tokens';
import { apiHandler, data } from '../lib/http';
import * as tokensApi from '../lib/api/tokens';

export const handler = apiHandler(tokensApi.listTokens, async ({ principal }) => data(await listTokens(principal)));
