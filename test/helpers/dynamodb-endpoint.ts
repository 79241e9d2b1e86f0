import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import type { Announcement } from './dynamodb-setup';

const PINNED = Symbol.for('talent-pipeline.test.dynamodb-endpoint');
type Pinned = { [PINNED]?: string };

/**
 * Waits until this worker's DynamoDB Local answers (test/helpers/dynamodb-setup.ts starts it in
 * the background), then keeps its endpoint for the life of the process: where files share a
 * module graph (the `integration` project), lib/store/client.ts built its client for the first
 * file's endpoint, and a process can run later files under another pool id. VITEST_POOL_ID runs
 * from 1 to maxWorkers. test/helpers/table-env.ts calls it before each file.
 */
export async function awaitDynamodbEndpoint(): Promise<string> {
  const g = globalThis as Pinned;
  if (g[PINNED]) return g[PINNED];
  const locals = inject('dynamodbLocals');
  if (!locals) throw new Error('no DynamoDB Local: run this file in a project with test/helpers/dynamodb-setup.ts');
  const file = join(locals.dir, `${(Number(process.env.VITEST_POOL_ID ?? '1') - 1) % locals.count}.json`);
  // The setup's start ends in an announcement either way (its own start timeout included), and
  // the rename makes it appear whole: polling the file is waiting on that event.
  while (!existsSync(file)) await sleep(25);
  const a = JSON.parse(readFileSync(file, 'utf8')) as Announcement;
  if ('error' in a) throw new Error(`this worker's DynamoDB Local did not start: ${a.error}`);
  g[PINNED] = a.endpoint;
  return a.endpoint;
}

/** The worker's endpoint, once awaitDynamodbEndpoint has found it (table-env.ts, before each file). */
export function dynamodbEndpoint(): string {
  const pinned = (globalThis as Pinned)[PINNED];
  if (!pinned) throw new Error('no DynamoDB Local endpoint yet: test/helpers/table-env.ts awaits it before each file');
  return pinned;
}
