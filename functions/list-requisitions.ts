import { listRequisitions } from '../lib/domain/requisitions';
import { apiHandler, page, route } from '../lib/http';

export const handler = apiHandler(route('list-requisitions'), async ({ principal, query }) =>
  page(await listRequisitions(principal, query)),
);
