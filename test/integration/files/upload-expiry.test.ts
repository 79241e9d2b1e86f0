/**
 * Unattached uploads expire under `npm start` too: the local S3 has no lifecycle, so
 * dev/upload-expiry.ts deletes what the deployed rule `UnattachedUploads` would, at the same age
 * (UNATTACHED_UPLOAD_DAYS), on a clock the test sets. Attached files (`files/`) are never touched.
 */
import { describe, expect, it } from 'vitest';
import { startUploadExpiryTimer } from '../../../dev/upload-expiry';
import { fileKey } from '../../../lib/files/keys';
import { UNATTACHED_UPLOAD_DAYS } from '../../../lib/files/limits';
import * as f from '../../helpers/file-fixtures';
import { useLocalS3 } from '../../helpers/local-s3';
import { until } from '../../helpers/until';
import * as presign from '../../../lib/files/presign';
import * as storage from '../../../lib/files/storage';

const local = useLocalS3();
const TENANT = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const DAY_MS = 86_400_000;
let seq = 0;
const nextId = () => `0190a1b2-c3d4-7e5f-8a9b-${String(++seq).padStart(12, '0')}`;

/** An upload landed as a browser sends it; answers its key. */
async function landed(): Promise<string> {
  const bytes = f.pdf();
  const up = await presign.presignUpload({ tenantId: TENANT, uploadId: nextId(), contentType: 'application/pdf', size: bytes.length });
  const form = new FormData();
  for (const [k, v] of Object.entries(up.fields)) form.append(k, v);
  form.append('file', new Blob([bytes]), 'cv.pdf');
  expect((await fetch(up.url, { method: 'POST', body: form })).status).toBeLessThan(300);
  return up.key;
}

/** An attached file: an upload moved to its file key, as the attach does. */
async function attached(): Promise<string> {
  const key = fileKey(TENANT, nextId(), nextId());
  await storage.promoteUpload(await landed(), key, 'application/pdf');
  return key;
}

describe('unattached uploads under npm start', () => {
  it('go once older than the lifecycle rule’s age, never sooner; attached files stay', async () => {
    const upload = await landed();
    const file = await attached();
    const landedAt = Date.now();
    // Just short of the age: nothing goes.
    expect(await local.s3().expireUploads(landedAt + UNATTACHED_UPLOAD_DAYS * DAY_MS - 60_000)).toBe(0);
    expect(await storage.headObject(upload)).toBeDefined();
    // Past it: the upload goes, the attached file stays.
    expect(await local.s3().expireUploads(Date.now() + UNATTACHED_UPLOAD_DAYS * DAY_MS + 1)).toBeGreaterThanOrEqual(1);
    expect(await storage.headObject(upload)).toBeUndefined();
    expect(await storage.headObject(file)).toEqual({ size: f.pdf().length, contentType: 'application/pdf' });
  });

  it("npm start's timer sweeps at once, without waiting for its interval, and says how many went", async () => {
    const upload = await landed();
    const lines: string[] = [];
    // A clock two days on, and an interval no test waits for: only the run at start can sweep.
    const timer = startUploadExpiryTimer(
      local.s3(),
      (l) => lines.push(l),
      () => Date.now() + 2 * UNATTACHED_UPLOAD_DAYS * DAY_MS,
    );
    try {
      await until('the upload expired', async () => (await storage.headObject(upload)) === undefined);
      await until('the sweep reported', () => lines.some((l) => /^upload expiry: \d+ unattached uploads expired$/.test(l)));
    } finally {
      timer.stop();
    }
  });
});
