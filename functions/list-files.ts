import { listFiles } from '../lib/domain/files';
import { apiHandler, data } from '../lib/http';
import * as filesApi from '../lib/api/files';

export const handler = apiHandler(filesApi.listFiles, async ({ principal, params }) => data(await listFiles(principal, params.id)));
