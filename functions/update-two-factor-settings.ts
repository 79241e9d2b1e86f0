import { updateTwoFactorSettings } from '../lib/domain/two-factor-admin';
import { apiHandler, data } from '../lib/http';
import * as twoFactorApi from '../lib/api/two-factor';

export const handler = apiHandler(twoFactorApi.updateTwoFactorSettings, async ({ principal, body }) =>
  data(await updateTwoFactorSettings(principal, body.required_for)),
);
