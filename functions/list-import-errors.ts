import { listImportErrors } from '../lib/domain/imports';
import { apiHandler, page } from '../lib/http';
import * as importsApi from '../lib/api/imports';

export const handler = apiHandler(importsApi.listImportErrors, async ({ principal, params, query }) =>
  page(await listImportErrors(principal, params.id, query)),
);
