/**
 * Object keys of the files bucket. A key holds ids only: never a filename, a person's name or
 * anything else personal, so a key seen in a log, a metric, an access log or a lifecycle report
 * says nothing about anyone, and erasure never has to scrub keys.
 *
 * - `uploads/<tenant>/<upload id>`: where a presigned POST puts the bytes. The bucket's lifecycle
 *   rule deletes what is still there a day later (an upload never attached).
 * - `uploads/<tenant>/<job>/<upload id>`: an applicant's CV, posted from a public job
 *   (lib/files/cv-upload.ts): under the job, so that only that job's application can name it. The
 *   same lifecycle rule deletes it a day later if no application took it.
 * - `files/<tenant>/<person>/<file id>`: an attached file, copied out of `uploads/` by the attach
 *   call. Under its person, so erasing a person deletes one prefix (every version of every key
 *   under it), whatever the table says.
 */

export const UPLOADS_PREFIX = 'uploads/';
export const FILES_PREFIX = 'files/';

/** Ids as this service makes them (UUIDs) and tenant ids: letters, digits and dashes only. */
const ID = /^[A-Za-z0-9-]{1,64}$/;

function checkId(what: string, value: string): string {
  if (!ID.test(value)) throw new Error(`${what} must be 1-64 letters, digits or dashes`);
  return value;
}

export const uploadKey = (tenantId: string, uploadId: string) =>
  `${UPLOADS_PREFIX}${checkId('tenant id', tenantId)}/${checkId('upload id', uploadId)}`;

/** The uploader of an applicant's CV on its file record (uploaded_by.type). */
export const APPLICANT_UPLOADER = 'applicant';

/** An applicant's CV upload for one job (no record: the key itself says whose job it is for). */
export const applicationCvKey = (tenantId: string, jobId: string, uploadId: string) =>
  `${UPLOADS_PREFIX}${checkId('tenant id', tenantId)}/${checkId('job id', jobId)}/${checkId('upload id', uploadId)}`;

export const fileKey = (tenantId: string, personId: string, fileId: string) =>
  `${personFilesPrefix(tenantId, personId)}${checkId('file id', fileId)}`;

/** Every attached file of one person: the prefix an erasure empties. */
export const personFilesPrefix = (tenantId: string, personId: string) =>
  `${FILES_PREFIX}${checkId('tenant id', tenantId)}/${checkId('person id', personId)}/`;

/** The tenant, person and file id of an attached file's key, or undefined for any other key. */
export function parseFileKey(key: string): { tenantId: string; personId: string; fileId: string } | undefined {
  const m = /^files\/([A-Za-z0-9-]{1,64})\/([A-Za-z0-9-]{1,64})\/([A-Za-z0-9-]{1,64})$/.exec(key);
  return m ? { tenantId: m[1]!, personId: m[2]!, fileId: m[3]! } : undefined;
}

/** The tenant and upload id of an upload key, or undefined for any other key (including another shape under `uploads/`). */
export function parseUploadKey(key: string): { tenantId: string; uploadId: string } | undefined {
  const m = /^uploads\/([A-Za-z0-9-]{1,64})\/([A-Za-z0-9-]{1,64})$/.exec(key);
  return m ? { tenantId: m[1]!, uploadId: m[2]! } : undefined;
}

/** True when `key` is the upload key issued for exactly this tenant and upload id. */
export const isIssuedUploadKey = (key: string, tenantId: string, uploadId: string) => {
  const parsed = parseUploadKey(key);
  return parsed !== undefined && parsed.tenantId === tenantId && parsed.uploadId === uploadId;
};
