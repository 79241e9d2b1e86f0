import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../dev/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * One DynamoDB Local per worker, `count` of them: each is announced in `dir` (`<n>.json`, n from
     * 0) once it answers, and a test file waits for its worker's (test/helpers/dynamodb-endpoint.ts).
     */
    dynamodbLocals: { dir: string; count: number };
  }
}

/** What a worker finds in its announcement: the endpoint, or why its DynamoDB Local did not start. */
export type Announcement = { endpoint: string } | { error: string };

/**
 * Global setup of the projects whose tests run the handlers in-process (vitest.config.ts): one
 * DynamoDB Local per vitest worker. DynamoDB Local answers one request at a time (its in-memory
 * database is one SQLite connection), so one instance for two workers kept one core busy and
 * the other mostly waiting: the integration tier's wall time was its Java CPU time. Each project
 * gets fresh instances: the contention races, run on the instances the integration tier had
 * filled, answered 500s at the route's 10 s timeout.
 *
 * The JVMs start in the background: vitest runs every project's global setup, one after another,
 * before the first file of any project, so awaiting each project's starts here held every tier's
 * first file (the browser files' among them) for all of them. A file waits only for its own.
 */
export default function setup(project: TestProject) {
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const dir = mkdtempSync(join(tmpdir(), 'tp-dynamodb-locals-'));
  // Written whole, then renamed: a worker never reads half an announcement.
  const announce = (n: number, a: Announcement) => {
    writeFileSync(join(dir, `${n}.json.tmp`), JSON.stringify(a));
    renameSync(join(dir, `${n}.json.tmp`), join(dir, `${n}.json`));
  };
  const instances = Array.from({ length: workers }, (_, n) =>
    startDynamoDbLocal().then(
      (ddb) => {
        announce(n, { endpoint: ddb.endpoint });
        return ddb;
      },
      (err: Error) => {
        announce(n, { error: err.message });
        return undefined;
      },
    ),
  );
  project.provide('dynamodbLocals', { dir, count: workers });
  return async () => {
    await Promise.all((await Promise.all(instances)).map((i) => i?.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
}
