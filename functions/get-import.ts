import { getImport } from '../lib/domain/imports';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('get-import'), async ({ principal, params }) => data(await getImport(principal, params.id)));
