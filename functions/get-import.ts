import { getImport } from '../lib/domain/imports';
import { apiHandler, data } from '../lib/http';
import * as importsApi from '../lib/api/imports';

export const handler = apiHandler(importsApi.getImport, async ({ principal, params }) => data(await getImport(principal, params.id)));
