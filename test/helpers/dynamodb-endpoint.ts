import { inject } from 'vitest';

/** This worker's DynamoDB Local (test/helpers/dynamodb-setup.ts): VITEST_POOL_ID runs from 1 to maxWorkers. */
export function dynamodbEndpoint(): string {
  const endpoints = inject('dynamodbEndpoints');
  if (!endpoints?.length) throw new Error('no DynamoDB Local: run this file in a project with test/helpers/dynamodb-setup.ts');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return endpoints[(worker - 1) % endpoints.length]!;
}
