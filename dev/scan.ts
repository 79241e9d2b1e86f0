/**
 * The backfills' walk over the table: every item of one type that a filter keeps, page by page.
 * An operator's Scan, run once after a deploy or by `npm start`, never on a request path.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../lib/store/client';

export async function* itemsOfType(
  type: string,
  opts: { filter?: string; names?: Record<string, string>; values?: Record<string, unknown>; projection?: string } = {},
): AsyncGenerator<Record<string, unknown>> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: `#type = :type${opts.filter ? ` AND ${opts.filter}` : ''}`,
        ExpressionAttributeNames: { '#type': 'type', ...opts.names },
        ExpressionAttributeValues: { ':type': type, ...opts.values },
        ...(opts.projection && { ProjectionExpression: opts.projection }),
        ExclusiveStartKey,
      }),
    );
    yield* page.Items ?? [];
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}
