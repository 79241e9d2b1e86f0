import { inject } from 'vitest';

const PINNED = Symbol.for('talent-pipeline.test.dynamodb-endpoint');

/**
 * This worker's DynamoDB Local (test/helpers/dynamodb-setup.ts): VITEST_POOL_ID runs from 1 to
 * maxWorkers. Kept for the life of the process: where files share a module graph (the
 * `integration` project), lib/store/client.ts built its client for the first file's endpoint,
 * and a process can run later files under another pool id.
 */
export function dynamodbEndpoint(): string {
  const g = globalThis as { [PINNED]?: string };
  if (g[PINNED]) return g[PINNED];
  const endpoints = inject('dynamodbEndpoints');
  if (!endpoints?.length) throw new Error('no DynamoDB Local: run this file in a project with test/helpers/dynamodb-setup.ts');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  g[PINNED] = endpoints[(worker - 1) % endpoints.length]!;
  return g[PINNED];
}
