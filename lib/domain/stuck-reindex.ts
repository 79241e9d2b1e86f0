/**
 * DynamoDB stream -> table maintenance: the second reader of the table stream beside the webhook
 * fan-out (a stream allows two per shard), filtered to MAINTENANCE_FILTER_PATTERNS. It does two
 * jobs, each idempotent:
 * - an audit intent (lib/store/audit.ts) is expanded into its records' items (expandAuditIntent),
 *   and into the activity feed items of the people they are about (expandActivity);
 * - a tenant's STATS item with a threshold change pending runs one bounded step of the stuck
 *   index's background re-index (lib/store/stuck.ts), one step per tenant per batch. Each step
 *   saves its cursor on the STATS item, and that write's own stream record invokes the next step,
 *   until the index matches the thresholds. Any later change to the STATS item (a save, or a
 *   counter of the one shard in four it holds) also resumes it, so a job cannot stall for good.
 * A failed record is reported and retried from there (a stream retries from the earliest failure);
 * after its retries the batch's position goes to the stream-failure queue, whose alarm an
 * operator answers (docs/operating.md), and `npm run admin -- audit settle` expands intents left.
 */
import type { BatchRules } from '../lambda';
import { logger } from '../logger';
import type { StreamChange } from '../records';
import { AUDIT_INTENT_TYPE } from '../store/audit';
import { expandAuditIntent } from '../store/audit-expand';
import { expandActivity } from './activity';
import { reindexStep } from '../store/stuck';
import { keys } from '../store/table';

/** The intent a change carries, if it is an audit intent's insert. */
const intentOf = (c: StreamChange) => (c.newImage?.type === AUDIT_INTENT_TYPE ? c.newImage : undefined);

async function expand(c: StreamChange, intent: Record<string, unknown>) {
  try {
    const records = await expandAuditIntent(intent);
    const activity = await expandActivity(intent);
    logger.debug('audit intent expanded', { tenant_id: intent.tenant_id, records, activity });
  } catch (err) {
    logger.error('audit intent expansion failed', {
      tenant_id: intent.tenant_id,
      sequence_number: c.sequence,
      error: { name: (err as Error).name, message: (err as Error).message },
    });
    throw err;
  }
}

const tenantOf = (pk: unknown) => {
  const prefix = keys.tenantPartition('');
  return typeof pk === 'string' && pk.startsWith(prefix) ? pk.slice(prefix.length) : undefined;
};

/**
 * The maintenance consumer's rules (functions/stuck-reindex.ts runs them with streamHandler,
 * lib/lambda.ts, which reports the earliest failed record: a stream retries from there).
 */
export const stuckReindex: BatchRules<StreamChange, Map<StreamChange, string>> = {
  // The first change of each tenant in the batch stands for all of them: a step reads the STATS
  // item afresh, so later changes of the same tenant would only repeat it.
  prepare(changes) {
    const first = new Map<string, StreamChange>();
    for (const c of changes) {
      const tenantId = intentOf(c) ? undefined : tenantOf(c.keys.PK);
      if (tenantId && !first.has(tenantId)) first.set(tenantId, c);
    }
    return new Map([...first].map(([tenantId, c]) => [c, tenantId]));
  },
  // Steps of different tenants, and intents, run side by side: they touch different items.
  async record(c, stepOf) {
    const intent = intentOf(c);
    if (intent) return expand(c, intent);
    const tenantId = stepOf.get(c);
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
};
