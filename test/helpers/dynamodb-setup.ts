import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../dev/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One DynamoDB Local per worker; a test file takes its worker's (test/helpers/dynamodb-endpoint.ts). */
    dynamodbEndpoints: string[];
  }
}

/**
 * Global setup of the projects whose tests run the handlers in-process (vitest.config.ts): one
 * DynamoDB Local per vitest worker. DynamoDB Local answers one request at a time (its in-memory
 * database is one SQLite connection), so one instance for two workers kept one core busy and
 * the other mostly waiting: the integration tier's wall time was its Java CPU time. Each project
 * gets fresh instances: the contention races, run on the instances the integration tier had
 * filled, answered 500s at the route's 10 s timeout.
 */
export default async function setup(project: TestProject) {
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const instances = await Promise.all(Array.from({ length: workers }, () => startDynamoDbLocal()));
  project.provide(
    'dynamodbEndpoints',
    instances.map((i) => i.endpoint),
  );
  return async () => {
    await Promise.all(instances.map((i) => i.stop()));
  };
}
