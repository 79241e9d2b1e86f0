import { startTwoFactor } from '../lib/domain/two-factor-start';
import { apiHandler, data } from '../lib/http';
import * as twoFactorApi from '../lib/api/two-factor';

export const handler = apiHandler(twoFactorApi.startTwoFactor, async ({ principal }) => data(await startTwoFactor(principal)));
