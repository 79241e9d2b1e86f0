/**
 * Where local data lives and how tools find a running `npm start`: it writes runtime.json
 * into the data directory, and the admin CLI and `npm run invoke` use its DynamoDB Local.
 * When nothing runs, they start DynamoDB Local on the same data for the length of the command.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDynamoDbLocalProcess, startDynamoDbLocal } from './dynamodb';
import { ensureTable, localClient } from './table';

export const LOCAL_TABLE = 'talent-pipeline';

export const dataDir = () => resolve(process.env.DATA_DIR || '.data');
export const dbPath = (dir: string) => join(dir, 'dynamodb');
const runtimeFile = (dir: string) => join(dir, 'runtime.json');

export interface RuntimeInfo {
  pid: number;
  javaPid: number;
  dynamodbEndpoint: string;
  tableName: string;
  url?: string;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The running `npm start` for this data directory, if any; clears a dead one's leftovers. */
export function readRuntime(dir: string): RuntimeInfo | undefined {
  if (!existsSync(runtimeFile(dir))) return undefined;
  const info = JSON.parse(readFileSync(runtimeFile(dir), 'utf8')) as RuntimeInfo;
  if (alive(info.pid)) return info;
  // npm start died without cleaning up: stop its orphaned Java, if that is what still runs.
  if (isDynamoDbLocalProcess(info.javaPid)) process.kill(info.javaPid, 'SIGKILL');
  rmSync(runtimeFile(dir), { force: true });
  return undefined;
}

export const writeRuntime = (dir: string, info: RuntimeInfo) =>
  writeFileSync(runtimeFile(dir), JSON.stringify(info, null, 2));
export const clearRuntime = (dir: string) => rmSync(runtimeFile(dir), { force: true });

/** Point this process's store at the local table, starting DynamoDB Local if nothing runs. */
export async function useLocalTable(): Promise<{ stop(): Promise<void> }> {
  const dir = dataDir();
  const running = readRuntime(dir);
  if (running) {
    process.env.TABLE_NAME = running.tableName;
    process.env.DYNAMODB_ENDPOINT = running.dynamodbEndpoint;
    return { stop: async () => {} };
  }
  mkdirSync(dbPath(dir), { recursive: true });
  const ddb = await startDynamoDbLocal({ dbPath: dbPath(dir) });
  await ensureTable(localClient(ddb.endpoint), LOCAL_TABLE);
  process.env.TABLE_NAME = LOCAL_TABLE;
  process.env.DYNAMODB_ENDPOINT = ddb.endpoint;
  return ddb;
}
