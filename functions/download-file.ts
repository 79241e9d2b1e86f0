import { downloadLink } from '../lib/domain/file-objects';
import { apiHandler, data, Reply } from '../lib/http';
import * as filesApi from '../lib/api/files';

// A redirect: a browser following it saves the file (Content-Disposition: attachment); the body repeats the link for clients that do not follow.
export const handler = apiHandler(filesApi.downloadFile, async ({ principal, params }) => {
  const link = await downloadLink(principal, params.id, params.file_id);
  return new Reply(data(link), { headers: { Location: link.url, 'Cache-Control': 'no-store' } });
});
