/**
 * The one DynamoDB client, built once per cold start and shared by every store module. Wrapped by
 * the Tracer here, where it is built, so every function that touches the table (API functions,
 * both authorizers, the webhook pipeline) records each call as an X-Ray subsegment without
 * remembering to; a no-op outside Lambda (lib/tracer.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { withoutCallLogging } from '../aws/no-call-logging';
import { config, requireSettings } from '../config';
import { checkTimeBudget } from '../time-budget';
import { tracer } from '../tracer';

export const ddbClient = new DynamoDBClient({
  region: config.region,
  ...(config.dynamodbEndpoint && {
    endpoint: config.dynamodbEndpoint,
    // DynamoDB Local accepts any credentials; never reach for real ones locally.
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
  maxAttempts: 5,
});
withoutCallLogging(ddbClient);
// Before the document client is made from it: that one shares this client's middleware stack.
tracer.captureAWSv3Client(ddbClient);

export const ddb = DynamoDBDocumentClient.from(ddbClient, {
  marshallOptions: { removeUndefinedValues: true },
});

// Checked as this module loads (a function without it stops at cold start), then read at each use:
// a module of the store keeps no table name of its own, so the in-process tests give each test
// file its own table without loading lib/ again.
requireSettings('tableName');
export const tableName = (): string => config.tableName;

/** Query input for one partition's items whose sort key starts with `prefix`, newest first. */
export const prefixQuery = (pk: string, prefix: string) => ({
  TableName: tableName(),
  KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
  ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
  ScanIndexForward: false,
});

type Key = Record<string, unknown>;

/**
 * A Query page by page, following LastEvaluatedKey from `startKey`, until it ends or the caller
 * stops iterating. `limit` is asked before each call (the Limit of that call, or none), so a
 * caller collecting N items never asks DynamoDB for more than it still wants. Within an API
 * request, a page after the first is read only while the request's time budget allows it
 * (lib/time-budget.ts: a 429 instead).
 */
export async function* queryPages(
  input: QueryCommandInput,
  opts: { startKey?: Key; limit?: () => number | undefined } = {},
): AsyncGenerator<QueryCommandOutput> {
  let ExclusiveStartKey = opts.startKey;
  for (let first = true; ; first = false) {
    if (!first) checkTimeBudget();
    const Limit = opts.limit?.();
    const page = await ddb.send(new QueryCommand({ ...input, ExclusiveStartKey, ...(Limit !== undefined && { Limit }) }));
    yield page;
    ExclusiveStartKey = page.LastEvaluatedKey;
    if (!ExclusiveStartKey) return;
  }
}

/** Every item of a Query, following LastEvaluatedKey. For small, bounded collections only. */
export async function queryAll(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(input)) items.push(...(page.Items ?? []));
  return items;
}

/**
 * Up to `limit` items from `startKey` on: one Query when nothing is filtered out, more only when
 * a FilterExpression leaves a page short.
 */
export async function queryUpTo(input: QueryCommandInput, limit: number, startKey?: Key): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(input, { startKey, limit: () => limit - items.length })) {
    items.push(...(page.Items ?? []));
    if (items.length >= limit) break;
  }
  return items;
}
