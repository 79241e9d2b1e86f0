import { uploadStatus } from '../lib/domain/upload-status';
import { apiHandler, data } from '../lib/http';
import * as filesApi from '../lib/api/files';

export const handler = apiHandler(filesApi.getUpload, async ({ principal, params }) => data(await uploadStatus(principal, params.id)));
