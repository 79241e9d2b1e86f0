/**
 * The local S3 for a test file: s3rver (dev/s3.ts) in this process, its objects in a temporary
 * directory, and FILES_BUCKET and S3_ENDPOINT set for lib/files/storage.ts, which reads them at
 * each call. Stops and removes everything in afterAll.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type LocalS3, startLocalS3 } from '../../dev/s3';

export function useLocalS3(): { s3: () => LocalS3; directory: () => string } {
  let s3: LocalS3 | undefined;
  let directory: string | undefined;
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'tp-s3-'));
    s3 = await startLocalS3({ directory });
    process.env.S3_ENDPOINT = s3.endpoint;
    process.env.FILES_BUCKET = s3.bucket;
  });
  afterAll(async () => {
    await s3?.stop();
    delete process.env.S3_ENDPOINT;
    delete process.env.FILES_BUCKET;
    if (directory) rmSync(directory, { recursive: true, force: true });
  });
  return { s3: () => s3!, directory: () => directory! };
}
