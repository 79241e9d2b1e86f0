/** The one DynamoDB client, built once per cold start and shared by every store module. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

export const ddbClient = new DynamoDBClient({
  region: config.region,
  ...(config.dynamodbEndpoint && {
    endpoint: config.dynamodbEndpoint,
    // DynamoDB Local accepts any credentials; never reach for real ones locally.
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
  maxAttempts: 5,
});

export const ddb = DynamoDBDocumentClient.from(ddbClient, {
  marshallOptions: { removeUndefinedValues: true },
});

export const tableName = config.tableName;
