/**
 * DynamoDB stream -> table maintenance: the second reader of the table stream beside the webhook
 * fan-out (a stream allows two per shard), filtered to MAINTENANCE_FILTER_PATTERNS. It does two
 * jobs, each idempotent:
 * - an audit intent (lib/store/audit.ts) is expanded into its records' items (expandAuditIntent);
 * - a tenant's STATS item with a threshold change pending runs one bounded step of the stuck
 *   index's background re-index (lib/store/stuck.ts), one step per tenant per batch. Each step
 *   saves its cursor on the STATS item, and that write's own stream record invokes the next step,
 *   until the index matches the thresholds. Any later change to the STATS item (a save, a
 *   counter) also resumes it, so a job cannot stall for good.
 * A failed record is reported and retried from there (a stream retries from the earliest failure);
 * after its retries the batch's position goes to the stream-failure queue, whose alarm an
 * operator answers (docs/operating.md), and `npm run admin -- audit settle` expands intents left.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../logger';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { AUDIT_INTENT_TYPE } from '../store/audit';
import { expandAuditIntent } from '../store/audit-expand';
import { reindexStep } from '../store/stuck';
import { keys } from '../store/table';

/** The intent a record carries, if it is an audit intent's insert. */
const intentOf = (r: DynamoDBRecord) =>
  r.dynamodb?.NewImage?.type?.S === AUDIT_INTENT_TYPE ? unmarshall(r.dynamodb.NewImage as Record<string, AttributeValue>) : undefined;

async function expand(r: DynamoDBRecord, intent: Record<string, unknown>) {
  try {
    const records = await expandAuditIntent(intent);
    logger.debug('audit intent expanded', { tenant_id: intent.tenant_id, records });
  } catch (err) {
    logger.error('audit intent expansion failed', {
      tenant_id: intent.tenant_id,
      sequence_number: r.dynamodb?.SequenceNumber,
      error: { name: (err as Error).name, message: (err as Error).message },
    });
    throw err;
  }
}

const tenantOf = (pk: string | undefined) => {
  const prefix = keys.tenantPartition('');
  return pk?.startsWith(prefix) ? pk.slice(prefix.length) : undefined;
};

export async function stuckReindex(event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> {
  // The first record of each tenant in the batch stands for all of them: a step reads the STATS
  // item afresh, so later records of the same tenant would only repeat it.
  const first = new Map<string, DynamoDBRecord>();
  for (const r of event.Records) {
    const tenantId = intentOf(r) ? undefined : tenantOf(r.dynamodb?.Keys?.PK?.S);
    if (tenantId && r.dynamodb?.SequenceNumber && !first.has(tenantId)) first.set(tenantId, r);
  }
  const stepOf = new Map([...first].map(([tenantId, r]) => [r, tenantId]));
  const response = await processPartialResponse(
    event,
    async (r: DynamoDBRecord) => {
      const intent = intentOf(r);
      if (intent) return expand(r, intent);
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
    // Steps of different tenants, and intents, run side by side: they touch different items.
    new BatchProcessor(EventType.DynamoDBStreams),
    { context, throwOnFullBatchFailure: false },
  );
  // Stream retries restart from the earliest failure, so report the earliest one.
  const failed = response.batchItemFailures.map((f) => f.itemIdentifier).sort();
  return { batchItemFailures: failed.slice(0, 1).map((itemIdentifier) => ({ itemIdentifier })) };
}
