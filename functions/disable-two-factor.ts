import { clientAddress } from '../lib/edge';
import { disableTwoFactor } from '../lib/domain/two-factor-enrol';
import { apiHandler } from '../lib/http';
import * as twoFactorApi from '../lib/api/two-factor';

export const handler = apiHandler(twoFactorApi.disableTwoFactor, async ({ principal, body, event }) =>
  disableTwoFactor(principal, body.password, clientAddress(event)),
);
