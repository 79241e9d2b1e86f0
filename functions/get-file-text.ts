import { getFileText } from '../lib/domain/files';
import { apiHandler, data } from '../lib/http';
import * as filesApi from '../lib/api/files';

export const handler = apiHandler(filesApi.getFileText, async ({ principal, params }) =>
  data(await getFileText(principal, params.id, params.file_id)),
);
