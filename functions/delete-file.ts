import { deleteFile } from '../lib/domain/file-objects';
import { apiHandler } from '../lib/http';
import * as filesApi from '../lib/api/files';

export const handler = apiHandler(filesApi.deleteFile, async ({ principal, params }) => {
  await deleteFile(principal, params.id, params.file_id);
  return { success: true };
});
