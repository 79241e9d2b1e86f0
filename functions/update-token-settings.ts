import { updateTokenSettings } from '../lib/domain/token-settings';
import { apiHandler, data } from '../lib/http';
import * as tokensApi from '../lib/api/tokens';

export const handler = apiHandler(tokensApi.updateTokenSettings, async ({ principal, body }) =>
  data(await updateTokenSettings(principal, body)),
);
