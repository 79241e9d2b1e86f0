/**
 * One-off data upgrades for a local DATA_DIR made by an older checkout, run by `npm start`
 * before the API listens. Today: candidates written before the change feed (GSI4) existed get
 * GSI4PK/GSI4SK from their own updated_at, so `updated_after` finds them. A Scan is fine here:
 * it runs once per start, outside any request, and finds nothing to do once the data is current.
 * A deployed table with older candidates needs the same upgrade once (docs/deploying.md, "Upgrading a table with older candidates").
 */
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ddb, tableName } from '../lib/store/client';
import { changeIndexKey, TABLE_DEF } from '../lib/store/table';

export async function backfillChangeIndex(): Promise<number> {
  const { byChange } = TABLE_DEF.indexes;
  let updated = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: '#type = :candidate AND attribute_not_exists(#cpk)',
        ExpressionAttributeNames: { '#type': 'type', '#cpk': byChange.partitionKey },
        ExpressionAttributeValues: { ':candidate': 'candidate' },
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const key = changeIndexKey(item.tenant_id as string, item.updated_at as string, item.id as string);
      try {
        await ddb.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { PK: item.PK, SK: item.SK },
            UpdateExpression: 'SET #cpk = :cpk, #csk = :csk',
            // Only if nothing changed it since the Scan: a write in between set the keys itself.
            ConditionExpression: 'updated_at = :seen AND attribute_not_exists(#cpk)',
            ExpressionAttributeNames: { '#cpk': byChange.partitionKey, '#csk': byChange.sortKey },
            ExpressionAttributeValues: { ':cpk': key[byChange.partitionKey], ':csk': key[byChange.sortKey], ':seen': item.updated_at },
          }),
        );
        updated++;
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) throw err;
      }
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return updated;
}
