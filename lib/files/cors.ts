/**
 * The files bucket's CORS rules, one definition for the stack (infra/constructs/files-bucket.ts)
 * and the local S3 of `npm start` (dev/s3.ts). S3 applies the first rule that matches a request's
 * origin, method and headers.
 *
 * 1. The console's origins: POST (uploads) and GET (downloads, images in the reader), ETag exposed.
 * 2. Any origin, POST only: the public CV upload (`POST /api/boards/{slug}/jobs/{id}/uploads`) is
 *    for any site's browser code, which must be able to send the presigned POST with a preflight
 *    (an upload progress listener makes one) and read its answer. What `*` allows is only that:
 *    a page reads the answer to a POST it sent itself. The presigned policy stays the credential
 *    (its key, size range, expiry and signature; S3 refuses a POST without one whatever the
 *    origin), and no cookie or other credential of the bucket exists for a page to borrow. S3's
 *    CORS rules cannot be scoped to a key prefix, so the rule covers the console's uploads too:
 *    still only the answers to a page's own POSTs. Reads stay with the console: no other origin
 *    may GET, so no page elsewhere can read a download link's bytes from script.
 */
import { UPLOAD_VALID_SECONDS } from './limits';

export interface FilesCorsRule {
  id: string;
  origins: readonly string[];
  methods: readonly ('GET' | 'POST')[];
  headers: readonly string[];
  expose: readonly string[];
  maxAgeSeconds: number;
}

export const ANY_SITE_UPLOADS_RULE_ID = 'AnySiteUploads';

export const filesCorsRules = (consoleOrigins: readonly string[]): FilesCorsRule[] => [
  {
    id: 'Console',
    origins: consoleOrigins,
    methods: ['POST', 'GET'],
    headers: ['*'],
    expose: ['ETag'],
    maxAgeSeconds: UPLOAD_VALID_SECONDS,
  },
  { id: ANY_SITE_UPLOADS_RULE_ID, origins: ['*'], methods: ['POST'], headers: ['*'], expose: [], maxAgeSeconds: UPLOAD_VALID_SECONDS },
];
