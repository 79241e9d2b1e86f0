import { getTokenSettings } from '../lib/domain/token-settings';
import { apiHandler, data } from '../lib/http';
import * as tokensApi from '../lib/api/tokens';

export const handler = apiHandler(tokensApi.getTokenSettings, async ({ principal }) => data(await getTokenSettings(principal)));
