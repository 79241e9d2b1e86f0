import { attachFile } from '../lib/domain/file-objects';
import { apiHandler, data, Reply } from '../lib/http';
import * as filesApi from '../lib/api/files';

export const handler = apiHandler(filesApi.attachFile, async ({ principal, params, body }) => {
  const { file, created } = await attachFile(principal, params.id, body);
  return created ? data(file) : new Reply(data(file), { status: 200 });
});
