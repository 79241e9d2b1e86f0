import { getFile } from '../lib/domain/files';
import { apiHandler, data } from '../lib/http';
import * as filesApi from '../lib/api/files';

export const handler = apiHandler(filesApi.getFile, async ({ principal, params }) =>
  data(await getFile(principal, params.id, params.file_id)),
);
