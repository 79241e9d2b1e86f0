import { getTwoFactorSettings } from '../lib/domain/two-factor-admin';
import { apiHandler, data } from '../lib/http';
import * as twoFactorApi from '../lib/api/two-factor';

export const handler = apiHandler(twoFactorApi.getTwoFactorSettings, async ({ principal }) => data(await getTwoFactorSettings(principal)));
