/**
 * The local file worker runs its checks in a thread of its own (dev/file-worker.ts): while a run
 * is stuck in synchronous work, as a large PDF's parse is, the local gateway keeps answering. The
 * run is held in its thread (FileWorkerOptions.hold: the thread blocks as a parse does) until the
 * test lets it go, so what is seen during the run does not depend on timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELD, RELEASED } from '../../../dev/file-worker';
import * as f from '../../helpers/file-fixtures';
import { type Stack, startStack } from '../../helpers/stack';
import { until } from '../../helpers/until';

const hold = new SharedArrayBuffer(4);
const flag = new Int32Array(hold);
let stack: Stack;
let token: string;

beforeAll(async () => {
  stack = await startStack({ files: { hold } });
  token = await (await stack.tenant()).token(['*']);
});
afterAll(async () => {
  Atomics.store(flag, 0, RELEASED);
  Atomics.notify(flag, 0);
  await stack?.close();
});

async function uploadCv(bytes: Uint8Array) {
  const res = await stack.call('POST', '/api/v1/uploads', {
    token,
    body: { filename: 'cv.pdf', content_type: 'application/pdf', size: bytes.length, purpose: 'new_person' },
  });
  expect(res.status, res.text).toBe(201);
  const up = res.body.data as { upload_id: string; url: string; fields: Record<string, string> };
  const form = new FormData();
  for (const [k, v] of Object.entries(up.fields)) form.append(k, v);
  form.append('file', new Blob([bytes]), 'cv.pdf');
  expect((await fetch(up.url, { method: 'POST', body: form })).status).toBeLessThan(300);
  return up.upload_id;
}

describe('the local file worker', () => {
  it('keeps the gateway answering while a run is stuck in synchronous work, then finishes it', async () => {
    const id = await uploadCv(f.pdf());
    // The run has started and is blocked in its thread (loading the thread takes a while under load).
    await until('the run held in its thread', () => Atomics.load(flag, 0) === HELD, 120_000);
    const limits = await stack.call('GET', '/api/v1/uploads/limits', { token });
    expect(limits.status).toBe(200);
    const during = await stack.call('GET', `/api/v1/uploads/${id}`, { token });
    expect(during.body.data.status).toBe('processing');
    // Both answers came while the run was still held: only this test lets it go.
    expect(Atomics.load(flag, 0)).toBe(HELD);

    Atomics.store(flag, 0, RELEASED);
    Atomics.notify(flag, 0);
    const done = await until('the upload checked', async () => {
      const res = await stack.call('GET', `/api/v1/uploads/${id}`, { token });
      return res.body.data?.status !== 'processing' && res;
    });
    expect(done.body.data.status).toBe('ready');
    expect(done.body.data.suggestions.email).toBe('ada.lovelace@example.com');
  }, 180_000);
});
