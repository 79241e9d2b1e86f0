import { decideOfferApproval } from '../lib/domain/approvals';
import { apiHandler, data } from '../lib/http';
import * as approvalsApi from '../lib/api/offer-approvals';

export const handler = apiHandler(approvalsApi.decideOfferApproval, async ({ principal, params, body }) =>
  data(await decideOfferApproval(principal, params.id, body)),
);
