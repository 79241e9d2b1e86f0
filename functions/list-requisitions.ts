import { listRequisitions } from '../lib/domain/requisitions';
import { apiHandler, page } from '../lib/http';
import * as requisitionsApi from '../lib/api/requisitions';

export const handler = apiHandler(requisitionsApi.listRequisitions, async ({ principal, query }) =>
  page(await listRequisitions(principal, query)),
);
