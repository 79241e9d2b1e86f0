import { listImportErrors } from '../lib/domain/imports';
import { apiHandler, page, route } from '../lib/http';

export const handler = apiHandler(route('list-import-errors'), async ({ principal, params, query }) =>
  page(await listImportErrors(principal, params.id, query)),
);
