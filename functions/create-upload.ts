import { createUpload } from '../lib/domain/file-objects';
import { apiHandler, data } from '../lib/http';
import * as filesApi from '../lib/api/files';

export const handler = apiHandler(filesApi.createUpload, async ({ principal, body }) => data(await createUpload(principal, body)));
