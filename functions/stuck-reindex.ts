/**
 * DynamoDB stream -> the stuck index's background re-index (lib/store/stuck.ts). Invoked only for
 * a tenant's STATS item while a threshold change is pending (STUCK_FILTER_PATTERNS); runs one
 * bounded step per tenant per batch. Each step saves its cursor on the STATS item, and that
 * write's own stream record invokes the next step, until the index matches the thresholds.
 * A failed step is reported on its record and retried from there; any later change to the STATS
 * item (a save, a counter) also resumes it, so a job cannot stall for good.
 */
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../lib/logger';
import { reindexStep } from '../lib/store/stuck';
import { keys } from '../lib/store/table';

const tenantOf = (pk: string | undefined) => {
  const prefix = keys.tenantPartition('');
  return pk?.startsWith(prefix) ? pk.slice(prefix.length) : undefined;
};

export const handler = async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => {
  logger.addContext(context);
  // The first record of each tenant in the batch stands for all of them: a step reads the STATS
  // item afresh, so later records of the same tenant would only repeat it.
  const first = new Map<string, string>();
  for (const r of event.Records) {
    const tenantId = tenantOf(r.dynamodb?.Keys?.PK?.S);
    const seq = r.dynamodb?.SequenceNumber;
    if (tenantId && seq && !first.has(tenantId)) first.set(tenantId, seq);
  }
  const failed: string[] = [];
  await Promise.all(
    [...first].map(async ([tenantId, seq]) => {
      try {
        const result = await reindexStep(tenantId);
        logger.info('stuck index step', { tenant_id: tenantId, result });
      } catch (err) {
        logger.error('stuck index step failed', { tenant_id: tenantId, error: { name: (err as Error).name, message: (err as Error).message } });
        failed.push(seq);
      }
    }),
  );
  // Stream retries restart from the earliest failure, so report the earliest one.
  failed.sort();
  return { batchItemFailures: failed.slice(0, 1).map((itemIdentifier) => ({ itemIdentifier })) };
};
