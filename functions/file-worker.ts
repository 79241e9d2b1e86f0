/**
 * Attached files -> checked and read: one EventBridge "Object Created" event of the files
 * bucket, naming a file key (ids only); see lib/domain/file-processing.ts. A failure throws, so
 * the rule's target retries; a second run of a processed file changes nothing. Logs the key and
 * the outcome only.
 */
import { processFileAt } from '../lib/domain/file-processing';
import { lambdaHandler } from '../lib/lambda';
import { logger } from '../lib/logger';

interface ObjectCreated {
  'detail-type'?: string;
  detail?: { object?: { key?: string } };
}

export const handler = lambdaHandler(async (event: ObjectCreated) => {
  const key = event['detail-type'] === 'Object Created' ? event.detail?.object?.key : undefined;
  if (!key) return;
  const outcome = await processFileAt(key);
  logger.info('file processed', { key, outcome });
});
