import { listRequisitions } from '../lib/domain/requisitions';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('list-requisitions'), ({ principal, query }) =>
  listRequisitions(principal.tenantId, query),
);
