/**
 * The audit log is written by the table maintenance stream consumer (lib/domain/stuck-reindex.ts)
 * a moment after each change. Integration tests run no stream poller: before reading the log they
 * settle it, expanding every pending intent through the consumer's own code (expandAuditIntent),
 * so what they read is what the consumer would have written, without polling or waiting.
 */
import { scanTable } from './scan';
import { tableName } from '../../lib/store/client';
import { expandAuditIntent } from '../../lib/store/audit-expand';
import { expandActivity } from '../../lib/domain/activity';
import { AUDIT_INTENT_TYPE } from '../../lib/store/audit';

const expanded = new Set<string>();

/** Expand the audit intents not expanded yet (of every workspace): resolves with how many were. */
export async function settleAudit(): Promise<number> {
  const intents = await scanTable({
    FilterExpression: '#type = :intent',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':intent': AUDIT_INTENT_TYPE },
  });
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
