import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const ddb = await startDynamoDbLocal();
  project.provide('dynamodbEndpoint', ddb.endpoint);
  return () => ddb.stop();
}
