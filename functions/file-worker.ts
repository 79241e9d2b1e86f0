/**
 * Attached files -> checked and read: one S3 event (ObjectCreated under `files/`), each record a
 * file key (ids only); see lib/domain/file-processing.ts. A failure throws, so Lambda retries
 * the event; a second run of a processed file changes nothing. Logs ids and outcomes only.
 */
import type { S3Event } from 'aws-lambda';
import { processFileAt } from '../lib/domain/file-processing';
import { lambdaHandler } from '../lib/lambda';
import { logger } from '../lib/logger';

export const handler = lambdaHandler(async (event: S3Event) => {
  for (const r of event.Records ?? []) {
    if (!r.eventName?.startsWith('ObjectCreated:')) continue;
    // S3 sends the key URL-encoded, spaces as `+` (keys here are ids: decoding changes nothing, but stays right).
    const key = decodeURIComponent(r.s3.object.key.replace(/\+/g, ' '));
    const outcome = await processFileAt(key);
    logger.info('file processed', { key, outcome });
  }
});
