/**
 * The application limits' counters (lib/domain/application-limits.ts): one item per sender,
 * scope and window, under `APPLYLIMIT#`, deleted by TTL an hour after its window. One conditional
 * UpdateItem each takes a slot, so concurrent posts cannot overshoot; the function may write these
 * items alone (its route line's `formToken: 'check'`; APPLY_LIMIT_PREFIX in ./table), and gets no value back.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LimitCounter } from '../domain/application-limits';
import { ddb, tableName } from './client';
import { TABLE_DEF } from './table';
import { unlessConditionFails } from './tx';

/** Takes a slot; false when the window's slots are all taken. */
export async function takeSlot(c: LimitCounter): Promise<boolean> {
  const taken = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: c.pk, SK: c.sk },
        UpdateExpression: 'ADD n :one SET #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(n) OR n < :max',
        ExpressionAttributeNames: { '#ttl': TABLE_DEF.ttlAttribute },
        ExpressionAttributeValues: { ':one': 1, ':max': c.limit.max, ':ttl': c.expiresAt },
      }),
    ),
  );
  return taken !== undefined;
}
