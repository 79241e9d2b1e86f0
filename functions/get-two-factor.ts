import { twoFactorStatus } from '../lib/domain/two-factor-enrol';
import { apiHandler, data } from '../lib/http';
import * as twoFactorApi from '../lib/api/two-factor';

export const handler = apiHandler(twoFactorApi.getTwoFactor, async ({ principal }) => data(await twoFactorStatus(principal)));
