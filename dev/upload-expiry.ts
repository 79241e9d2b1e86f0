/**
 * The expiry of unattached uploads under `npm start`: deployed, the files bucket's lifecycle rule
 * `UnattachedUploads` removes an upload nobody attached (an applicant's CV never applied with, a
 * console upload abandoned) after UNATTACHED_UPLOAD_DAYS; s3rver has no lifecycle, so without this
 * such personal data would stay on the developer's disk for good. It runs on the scheduled timer,
 * every UPLOAD_EXPIRY_INTERVAL_SECONDS (an hour unless set; 0 turns it off), and once at start, so
 * that a runtime restarted more often than the interval still sweeps.
 */
import type { LocalS3 } from './s3';
import { startScheduledTimer } from './scheduled-timer';

export function startUploadExpiryTimer(s3: LocalS3, log: (line: string) => void, now: () => number = Date.now): { stop(): void } {
  return startScheduledTimer(
    'upload expiry',
    { variable: 'UPLOAD_EXPIRY_INTERVAL_SECONDS', seconds: 3600 },
    [
      {
        module: 'upload-expiry',
        load: async () => ({ handler: async () => ({ expired: await s3.expireUploads(now()) }) }),
        report: (r) => (r.expired ? `${r.expired} unattached uploads expired` : undefined),
      },
    ],
    log,
    { atStart: true },
  );
}
