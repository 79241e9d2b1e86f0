import { updateOfferApprovals } from '../lib/domain/approvals';
import { apiHandler, data } from '../lib/http';
import * as approvalsApi from '../lib/api/offer-approvals';

export const handler = apiHandler(approvalsApi.updateOfferApprovals, async ({ principal, body }) =>
  data(await updateOfferApprovals(principal, body)),
);
