import { getOfferApprovals } from '../lib/domain/approvals';
import { apiHandler, data } from '../lib/http';
import * as approvalsApi from '../lib/api/offer-approvals';

export const handler = apiHandler(approvalsApi.getOfferApprovals, async ({ principal }) => data(await getOfferApprovals(principal)));
