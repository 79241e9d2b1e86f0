/**
 * The audit log is written by the table maintenance stream consumer (lib/domain/stuck-reindex.ts)
 * a moment after each change. Integration tests run no stream poller: before reading the log they
 * settle it, expanding every pending intent through the consumer's own code (expandAuditIntent),
 * so what they read is what the consumer would have written, without polling or waiting.
 */
import { scanTable } from './scan';
import { tableName } from '../../lib/store/client';
import { auditIntentsOf, expandAuditIntent } from '../../lib/store/audit-expand';
import { expandActivity } from '../../lib/domain/activity';
import { AUDIT_INTENT_TYPE } from '../../lib/store/audit';

const expanded = new Set<string>();

/**
 * Expand the audit intents not expanded yet, of every workspace, or of `tenantId`'s alone:
 * resolves with how many were. A file that seeds thousands of items and reads one workspace's
 * log names it: its intents are then one Query per shard (as `npm run admin -- audit settle`
 * reads them), not a Scan of the whole table.
 */
export async function settleAudit(tenantId?: string): Promise<number> {
  const intents =
    tenantId === undefined
      ? await scanTable({
          FilterExpression: '#type = :intent',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':intent': AUDIT_INTENT_TYPE },
        })
      : (await auditIntentsOf(tenantId)).filter((i) => i.type === AUDIT_INTENT_TYPE);
  let count = 0;
  for (const intent of intents) {
    const key = `${tableName()}|${String(intent.PK)}|${String(intent.SK)}`;
    if (expanded.has(key)) continue;
    await expandAuditIntent(intent);
    // The consumer writes the activity feed from the same intent (lib/domain/stuck-reindex.ts).
    await expandActivity(intent);
    expanded.add(key);
    count++;
  }
  return count;
}
