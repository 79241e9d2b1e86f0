/**
 * Every item of the test's local table, page by page: the proof a test gives that something is,
 * or is not, stored anywhere (erasure, the audit log, what an import keeps). Tests only: no
 * request path ever scans.
 */
import type { ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../../lib/store/client';

export type ScannedItem = Record<string, unknown>;

/**
 * All items, or those a filter keeps (`FilterExpression` with its names and values), projected if
 * asked; of the table lib/store/client.ts uses unless `TableName` names another.
 */
export async function scanTable(
  opts: Partial<
    Pick<
      ScanCommandInput,
      'TableName' | 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues' | 'ProjectionExpression'
    >
  > = {},
): Promise<ScannedItem[]> {
  const items: ScannedItem[] = [];
  let ExclusiveStartKey: ScannedItem | undefined;
  do {
    const page = await ddb.send(new ScanCommand({ ...opts, TableName: opts.TableName ?? tableName(), ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as ScannedItem[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}
