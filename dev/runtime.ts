/**
 * Where local data lives and how tools find a running `npm start`: it writes runtime.json
 * into the data directory, and the admin CLI and `npm run invoke` use its DynamoDB Local.
 * When nothing runs, they start DynamoDB Local on the same data for the length of the command.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDynamoDbLocalProcess, startDynamoDbLocal } from './dynamodb';
import { LOCAL_MAIL_FROM } from './files-and-mail';
import { alive } from './pids';

export const LOCAL_TABLE = 'talent-pipeline';

export const dataDir = () => resolve(process.env.DATA_DIR || '.data');
export const dbPath = (dir: string) => join(dir, 'dynamodb');
const runtimeFile = (dir: string) => join(dir, 'runtime.json');

export interface RuntimeInfo {
  pid: number;
  /** Absent while npm start is still starting DynamoDB Local. */
  javaPid?: number;
  dynamodbEndpoint?: string;
  tableName?: string;
  url?: string;
  /** The local SQS of the webhook pipeline. */
  sqsEndpoint?: string;
  queueUrl?: string;
  dlqUrl?: string;
  /** The local S3 (s3rver) and its files bucket, and the local SES (dev/files-and-mail.ts). */
  s3Endpoint?: string;
  filesBucket?: string;
  sesEndpoint?: string;
}

function parse(file: string): RuntimeInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as RuntimeInfo;
    return Number.isInteger(info.pid) ? info : undefined;
  } catch {
    return undefined; // missing, empty or torn: treated as no runtime
  }
}

/** The running `npm start` for this data directory, if any; clears a dead one's leftovers. */
export function readRuntime(dir: string): RuntimeInfo | undefined {
  const info = parse(runtimeFile(dir));
  if (info && alive(info.pid)) return info;
  // npm start died without cleaning up: stop its orphaned Java, if that is what still runs.
  if (info?.javaPid && isDynamoDbLocalProcess(info.javaPid)) process.kill(info.javaPid, 'SIGKILL');
  rmSync(runtimeFile(dir), { force: true });
  return undefined;
}

/**
 * Claim the data directory for this process. The exclusive create makes two starts racing on
 * one directory see each other; returns the holder when another live process has it.
 */
export function claimRuntime(dir: string): RuntimeInfo | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(runtimeFile(dir), JSON.stringify({ pid: process.pid }), { flag: 'wx' });
      return undefined;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readRuntime(dir);
      if (holder) return holder;
    }
  }
  throw new Error(`Could not claim ${runtimeFile(dir)}`);
}

/** Replace atomically, so a reader never sees a half-written file. */
export function writeRuntime(dir: string, info: RuntimeInfo) {
  const tmp = `${runtimeFile(dir)}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(info, null, 2));
  renameSync(tmp, runtimeFile(dir));
}
export const clearRuntime = (dir: string) => rmSync(runtimeFile(dir), { force: true });

/** A running npm start that is still starting: wait until its DynamoDB Local is ready. */
async function readyRuntime(dir: string): Promise<RuntimeInfo | undefined> {
  const deadline = Date.now() + 60_000;
  for (let info = readRuntime(dir); info; info = readRuntime(dir)) {
    if (info.dynamodbEndpoint && info.tableName) return info;
    if (Date.now() > deadline) throw new Error(`npm start (pid ${info.pid}) did not become ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return undefined;
}

/** Point this process's store at the local table, starting DynamoDB Local if nothing runs. */
export async function useLocalTable(): Promise<{ stop(): Promise<void> }> {
  const dir = dataDir();
  const running = await readyRuntime(dir);
  // The sender npm start gives the functions that send mail: they stop at cold start without one.
  process.env.MAIL_FROM ??= LOCAL_MAIL_FROM;
  // The form tokens' key, which the careers functions read as every deploy gives it: one of this
  // process's own, so a link or form signed elsewhere is refused here, as after a restart.
  process.env.FORM_TOKEN_SECRET ??= randomBytes(32).toString('base64url');
  if (running) {
    process.env.TABLE_NAME = running.tableName;
    process.env.DYNAMODB_ENDPOINT = running.dynamodbEndpoint;
    if (running.sqsEndpoint) {
      process.env.SQS_ENDPOINT = running.sqsEndpoint;
      process.env.WEBHOOK_QUEUE_URL = running.queueUrl;
      process.env.WEBHOOK_DLQ_URL = running.dlqUrl;
    }
    if (running.s3Endpoint && running.filesBucket) {
      process.env.S3_ENDPOINT = running.s3Endpoint;
      process.env.FILES_BUCKET = running.filesBucket;
    }
    if (running.sesEndpoint) process.env.SES_ENDPOINT = running.sesEndpoint;
    return { stop: async () => {} };
  }
  mkdirSync(dbPath(dir), { recursive: true });
  // Loaded here: `npm start` reaches this module before its port checks, and a refused start needs no SDK client.
  const { ensureTable, localClient } = await import('./table');
  const ddb = await startDynamoDbLocal({ dbPath: dbPath(dir) });
  await ensureTable(localClient(ddb.endpoint), LOCAL_TABLE);
  process.env.TABLE_NAME = LOCAL_TABLE;
  process.env.DYNAMODB_ENDPOINT = ddb.endpoint;
  return ddb;
}
