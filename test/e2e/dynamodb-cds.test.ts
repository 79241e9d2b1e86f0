/**
 * DynamoDB Local's class-data archive (dev/dynamodb-cds.ts), in a cache directory of this file's
 * own: the first start on it makes the archive and starts from it, and a damaged archive (Java
 * crashes on a truncated one) never stops a start.
 */
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type DynamoDbLocal, emulatorDir, startDynamoDbLocal } from '../../dev/dynamodb';
import { javaLaunch } from '../../dev/dynamodb-cds';
import { localClient } from '../../dev/table';

const cache = mkdtempSync(join(tmpdir(), 'tp-cds-'));
const started: DynamoDbLocal[] = [];
const start = async () => {
  const ddb = await startDynamoDbLocal();
  started.push(ddb);
  return ddb;
};
beforeAll(() => {
  vi.stubEnv('DYNAMODB_LOCAL_CDS_DIR', cache);
});
afterAll(async () => {
  await Promise.all(started.map((d) => d.stop()));
  vi.unstubAllEnvs();
  rmSync(cache, { recursive: true, force: true });
});

const args = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');

/** The tables it lists: an answer from the DynamoDB Local that was started. */
const tableNames = async (ddb: DynamoDbLocal) => (await localClient(ddb.endpoint).send(new ListTablesCommand({}))).TableNames;

describe('the first start on a fresh cache', () => {
  let ddb: DynamoDbLocal;
  beforeAll(async () => {
    ddb = await start();
  });

  test('makes the archive, publishes it whole and starts from it', async () => {
    const { archive, dir } = javaLaunch(emulatorDir());
    expect(archive).toBe(join(dir!, 'classes.jsa'));
    expect(args(ddb.pid)).toContain(`-XX:SharedArchiveFile=${archive}`);
    expect(await tableNames(ddb)).toEqual([]);
    // No lock, partial file or failure mark left behind: the jar's copy and the archive only.
    expect(readdirSync(dir!).sort()).toEqual(['DynamoDBLocal.jar', 'classes.jsa']);
    await ddb.stop();
  });
});

describe('a truncated archive', () => {
  let ddb: DynamoDbLocal;
  let archive: string;
  let dir: string;
  beforeAll(async () => {
    ({ archive, dir } = javaLaunch(emulatorDir()) as { archive: string; dir: string });
    const whole = readFileSync(archive);
    rmSync(archive); // Java writes it read-only
    writeFileSync(archive, whole.subarray(0, whole.length >> 4));
    ddb = await start();
  });

  test('never stops a start: the JVM that crashes on it is started again without it, and it is dropped', async () => {
    expect(args(ddb.pid).filter((a) => a.startsWith('-XX:SharedArchiveFile'))).toEqual([]);
    expect(await tableNames(ddb)).toEqual([]);
    expect(existsSync(archive)).toBe(false);
    // Marked, so later starts neither make one again nor try this one.
    expect(existsSync(join(dir, 'failed'))).toBe(true);
    expect(javaLaunch(emulatorDir()).archive).toBeUndefined();
  });
});
