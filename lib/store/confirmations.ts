/**
 * The marks of the applicants' confirmations sent (`APPMAIL#<candidate id>`: no address, no
 * name), so that a message delivered twice, or the fan-out's record retried, mails once. A mark
 * leaves by TTL once no retry can come.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { keys, TABLE_DEF } from './table';

/** SQS keeps a message 4 days at most, and the stream a record one day: a mark older than that guards nothing. */
const MARK_TTL_S = 14 * 86_400;

export async function confirmationSent(tenantId: string, candidateId: string): Promise<boolean> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.confirmationSent(tenantId, candidateId), ConsistentRead: true }),
  );
  return Boolean(Item);
}

export async function markConfirmationSent(tenantId: string, candidateId: string, nowMs: number): Promise<void> {
  await ddb.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.confirmationSent(tenantId, candidateId),
        type: 'application_confirmation_sent',
        tenant_id: tenantId,
        [TABLE_DEF.ttlAttribute]: Math.floor(nowMs / 1000) + MARK_TTL_S,
      },
    }),
  );
}
