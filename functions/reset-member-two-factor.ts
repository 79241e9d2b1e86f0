import { resetMemberTwoFactor } from '../lib/domain/two-factor-admin';
import { apiHandler } from '../lib/http';
import * as twoFactorApi from '../lib/api/two-factor';

export const handler = apiHandler(twoFactorApi.resetMemberTwoFactor, async ({ principal, params }) =>
  resetMemberTwoFactor(principal, params.id),
);
