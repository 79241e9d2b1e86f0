/**
 * Attached files, and uploads issued for a new person -> checked and read: one EventBridge "Object Created" event of the files
 * bucket, naming a file key (ids only); see lib/domain/file-processing.ts. With malware
 * protection, also GuardDuty's "Object Scan Result" for that key: recorded on the file, a threat
 * refusing it. A failure throws, so
 * the rule's target retries; a second run of a processed file changes nothing. Logs the key and
 * the outcome only.
 */
import { checkUploadAt, processFileAt, recordScanAt } from '../lib/domain/file-processing';
import { SCAN_RESULT_EVENT } from '../lib/domain/file-scan-rules';
import { parseUploadKey } from '../lib/files/keys';
import { lambdaHandler } from '../lib/lambda';
import { logger } from '../lib/logger';

interface FileEvent {
  'detail-type'?: string;
  detail?: {
    object?: { key?: string };
    s3ObjectDetails?: { objectKey?: string };
    scanResultDetails?: { scanResultStatus?: string };
  };
}

export const handler = lambdaHandler(async (event: FileEvent) => {
  if (event['detail-type'] === SCAN_RESULT_EVENT) {
    const key = event.detail?.s3ObjectDetails?.objectKey;
    const status = event.detail?.scanResultDetails?.scanResultStatus;
    if (!key || !status) return;
    logger.info('file scanned', { key, status, outcome: await recordScanAt(key, status) });
    return;
  }
  const key = event['detail-type'] === 'Object Created' ? event.detail?.object?.key : undefined;
  if (!key) return;
  if (parseUploadKey(key)) {
    logger.info('upload checked', { key, outcome: await checkUploadAt(key) });
    return;
  }
  const outcome = await processFileAt(key);
  logger.info('file processed', { key, outcome });
});
