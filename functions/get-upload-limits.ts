import { UPLOAD_LIMITS } from '../lib/files/limits';
import { apiHandler, data } from '../lib/http';
import * as filesApi from '../lib/api/files';

export const handler = apiHandler(filesApi.getUploadLimits, async () =>
  data({ ...UPLOAD_LIMITS, types: UPLOAD_LIMITS.types.map((t) => ({ ...t, extensions: [...t.extensions] })) }),
);
