/**
 * When the deployed stack scans files for malware (`-c malwareProtection=true`: GuardDuty Malware
 * Protection for S3), an attached file is served (its text, its download link) only once the
 * scan found it clean. GuardDuty reports each scan twice, the same way: as the object tag
 * `GuardDutyMalwareScanStatus` (which the bucket policy checks before S3 serves the bytes) and as
 * an EventBridge event, which the file worker records on the file (`scan_status`). This is the
 * rule both ends apply. Pure.
 */

/** The tag GuardDuty writes on each object it scanned, its clean value and its threat value. */
export const SCAN_TAG = 'GuardDutyMalwareScanStatus';
export const SCAN_CLEAN = 'NO_THREATS_FOUND';
export const SCAN_THREATS = 'THREATS_FOUND';
/** The EventBridge detail-type of GuardDuty Malware Protection for S3's scan results (the file worker takes them). */
export const SCAN_RESULT_EVENT = 'GuardDuty Malware Protection Object Scan Result';
/** What GuardDuty reports (scanResultStatus, and the tag's value): a threat, clean, or a scan that could not judge. */
export const SCAN_RESULTS = [SCAN_CLEAN, SCAN_THREATS, 'UNSUPPORTED', 'ACCESS_DENIED', 'FAILED'] as const;

export type ServeVerdict = { serve: true } | { serve: false; code: 'scan_pending' | 'file_infected'; error: string };

/**
 * May a ready file be served? Always, when no scan runs. With scanning on: only when the scan
 * said NO_THREATS_FOUND; a threat is `file_infected`; no result yet, or a result that judged
 * nothing (unsupported, access denied, failed), is `scan_pending`: never served on a guess.
 */
export function scanVerdict(scanning: boolean, scanStatus: string | null | undefined): ServeVerdict {
  if (!scanning || scanStatus === SCAN_CLEAN) return { serve: true };
  if (scanStatus === SCAN_THREATS) return { serve: false, code: 'file_infected', error: 'the malware scan found a threat in this file' };
  return {
    serve: false,
    code: 'scan_pending',
    error: scanStatus
      ? `the malware scan could not clear this file (${scanStatus})`
      : 'the file is waiting for its malware scan; try again shortly',
  };
}

/** Whether a reported result marks the file refused (its bytes deleted). */
export const isThreat = (scanStatus: string) => scanStatus === SCAN_THREATS;
