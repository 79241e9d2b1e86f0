/**
 * An upload's status for "Add candidate from a CV", apart from the other file routes' domain: this
 * route reads one table item, and its function must not bundle the storage client (which needs the
 * bucket's name at cold start; the function is given none).
 */
import type { UploadStatus } from '../api/files';
import { NotFoundError } from '../errors';
import { getUpload } from '../store/files';
import type { Principal } from './principal';

export const uploadNotFound = () => new NotFoundError('upload', { code: 'upload_not_found', field: 'upload_id' });

/** An upload issued for a new person, as the worker left it: another workspace's, or one without that purpose, is none. */
export async function uploadStatus(p: Principal, uploadId: string): Promise<UploadStatus> {
  const upload = await getUpload(p.tenantId, uploadId);
  if (upload?.purpose !== 'new_person' || !upload.check_status) throw uploadNotFound();
  return { upload_id: upload.upload_id, status: upload.check_status, suggestions: upload.suggestions ?? {} };
}
