import { listAwaitingOffers } from '../lib/domain/offer-awaiting-list';
import { apiHandler, page } from '../lib/http';
import * as approvalsApi from '../lib/api/offer-approvals';

export const handler = apiHandler(approvalsApi.listOfferApprovals, async ({ principal, query }) =>
  page(await listAwaitingOffers(principal, query)),
);
