/** Creates the service table on DynamoDB Local from the same TABLE_DEF the CDK stack uses. */
import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { withoutCallLogging } from '../lib/aws/no-call-logging';
import { TABLE_DEF } from '../lib/store/table';

export const localClient = (endpoint: string) =>
  withoutCallLogging(
    new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );

/**
 * `stream: false` is for test tables nothing reads the stream of. DynamoDB Local keeps every
 * stream it ever made, a deleted table's too, and each one slows every request of the instance:
 * a 9-item transaction cost 19 ms of its CPU with one streamed table, 50 ms with 20 more and
 * 154 ms with 60 more (without streams: 17 ms with 60 more).
 */
export async function ensureTable(client: DynamoDBClient, tableName: string, { stream = true } = {}): Promise<'created' | 'exists'> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    await addMissingIndexes(client, tableName, new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName!)));
    return 'exists';
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  const indexes = Object.values(TABLE_DEF.indexes);
  const attrs = new Set<string>([TABLE_DEF.partitionKey, TABLE_DEF.sortKey]);
  for (const i of indexes) attrs.add(i.partitionKey).add(i.sortKey);
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attrs].map((a) => ({ AttributeName: a, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE_DEF.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_DEF.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: indexes.map(
          (i): GlobalSecondaryIndex => ({
            IndexName: i.name,
            KeySchema: [
              { AttributeName: i.partitionKey, KeyType: 'HASH' },
              { AttributeName: i.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          }),
        ),
        ...(stream && { StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_DEF.stream } }),
      }),
    );
  } catch (err) {
    if (err instanceof ResourceInUseException) return 'exists';
    throw err;
  }
  return 'created';
}

/**
 * A table made before an index joined TABLE_DEF (a DATA_DIR from an older checkout) gets it
 * added, as a deploy would add it to the deployed table. Items written before then lack the
 * index's attributes: dev/backfill.ts sets them.
 */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, present: Set<string>) {
  const missing = Object.values(TABLE_DEF.indexes).filter((i) => !present.has(i.name));
  if (!missing.length) return;
  for (const i of missing) {
    // One index build at a time per table, as in DynamoDB: the next waits for this one.
    await indexesActive(client, tableName);
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [i.partitionKey, i.sortKey].map((a) => ({ AttributeName: a, AttributeType: 'S' })),
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: i.name,
              KeySchema: [
                { AttributeName: i.partitionKey, KeyType: 'HASH' },
                { AttributeName: i.sortKey, KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: 'ALL' },
            },
          },
        ],
      }),
    );
  }
  await indexesActive(client, tableName);
}

async function indexesActive(client: DynamoDBClient, tableName: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if ((Table?.GlobalSecondaryIndexes ?? []).every((g) => g.IndexStatus === 'ACTIVE')) return;
    if (Date.now() > deadline) throw new Error(`the indexes of ${tableName} were not active after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
