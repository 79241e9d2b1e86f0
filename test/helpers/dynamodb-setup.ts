import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../dev/dynamodb';

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
 * the other mostly waiting: the integration tier's wall time was its Java CPU time. The projects
 * share the instances (each runs this setup in the same main process); the last one to finish
 * stops them.
 */
const shared = globalThis as { tpDynamoDbLocal?: { users: number; instances: Promise<DynamoDbLocal[]> } };

export default async function setup(project: TestProject) {
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  shared.tpDynamoDbLocal ??= {
    users: 0,
    instances: Promise.all(Array.from({ length: workers }, () => startDynamoDbLocal())),
  };
  const pool = shared.tpDynamoDbLocal;
  pool.users++;
  const instances = await pool.instances;
  project.provide(
    'dynamodbEndpoints',
    instances.map((i) => i.endpoint),
  );
  return async () => {
    if (--pool.users > 0) return;
    shared.tpDynamoDbLocal = undefined;
    await Promise.all(instances.map((i) => i.stop()));
  };
}
