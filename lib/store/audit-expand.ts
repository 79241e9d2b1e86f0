/**
 * The audit log's expansion: an intent (lib/store/audit.ts) becomes its records' items. Run by the
 * table maintenance stream consumer for each new intent, by `npm run admin -- audit settle|migrate`
 * for intents the stream no longer holds, and by the integration tests' settleAudit. Every put is
 * conditional on the record being absent, so expanding an intent twice (a redelivered stream
 * record, a settle after the consumer) changes nothing.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { auditRecordItems } from './audit';
import { ddb, queryAll, tableName } from './client';
import { AUDIT_INTENT_SHARDS, keys } from './table';

/** Put an intent's records; resolves with how many were new (0 when an earlier expansion wrote them all). */
export async function expandAuditIntent(intent: Record<string, unknown>): Promise<number> {
  const written = await Promise.all(auditRecordItems(intent).map(putRecord));
  return written.filter(Boolean).length;
}

async function putRecord(Item: Record<string, unknown>): Promise<boolean> {
  try {
    await ddb.send(new PutCommand({ TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' }));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** A workspace's intents still kept (at most AUDIT_INTENT_TTL_DAYS old): one Query per shard. */
export async function auditIntentsOf(tenantId: string): Promise<Record<string, unknown>[]> {
  const shards = Array.from({ length: AUDIT_INTENT_SHARDS }, (_, k) => keys.auditIntent(tenantId, String(k), '').PK);
  const pages = await Promise.all(
    shards.map((pk) => queryAll({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk } })),
  );
  return pages.flat();
}

/** Expand every intent a workspace still keeps; resolves with the intents read and the records that were missing. */
export async function settleAuditIntents(tenantId: string): Promise<{ intents: number; records: number }> {
  const intents = await auditIntentsOf(tenantId);
  let records = 0;
  for (const intent of intents) records += await expandAuditIntent(intent);
  return { intents: intents.length, records };
}
