/**
 * DynamoDB stream -> the stuck index's background re-index (lib/store/stuck.ts). Invoked only for
 * a tenant's STATS item while a threshold change is pending (STUCK_FILTER_PATTERNS); runs one
 * bounded step per tenant per batch. Each step saves its cursor on the STATS item, and that
 * write's own stream record invokes the next step, until the index matches the thresholds.
 * A failed step is reported on its record and retried from there; any later change to the STATS
 * item (a save, a counter) also resumes it, so a job cannot stall for good.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../logger';
import { reindexStep } from '../store/stuck';
import { keys } from '../store/table';

const tenantOf = (pk: string | undefined) => {
  const prefix = keys.tenantPartition('');
  return pk?.startsWith(prefix) ? pk.slice(prefix.length) : undefined;
};

export async function stuckReindex(event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> {
  // The first record of each tenant in the batch stands for all of them: a step reads the STATS
  // item afresh, so later records of the same tenant would only repeat it.
  const first = new Map<string, DynamoDBRecord>();
  for (const r of event.Records) {
    const tenantId = tenantOf(r.dynamodb?.Keys?.PK?.S);
    if (tenantId && r.dynamodb?.SequenceNumber && !first.has(tenantId)) first.set(tenantId, r);
  }
  const stepOf = new Map([...first].map(([tenantId, r]) => [r, tenantId]));
  const response = await processPartialResponse(
    event,
    async (r: DynamoDBRecord) => {
      const tenantId = stepOf.get(r);
      if (!tenantId) return;
      try {
        const result = await reindexStep(tenantId);
        logger.info('stuck index step', { tenant_id: tenantId, result });
      } catch (err) {
        logger.error('stuck index step failed', {
          tenant_id: tenantId,
          error: { name: (err as Error).name, message: (err as Error).message },
        });
        throw err;
      }
    },
    // Steps of different tenants run side by side, as they touch different items.
    new BatchProcessor(EventType.DynamoDBStreams),
    { context, throwOnFullBatchFailure: false },
  );
  // Stream retries restart from the earliest failure, so report the earliest one.
  const failed = response.batchItemFailures.map((f) => f.itemIdentifier).sort();
  return { batchItemFailures: failed.slice(0, 1).map((itemIdentifier) => ({ itemIdentifier })) };
}
