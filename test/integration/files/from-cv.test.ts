/**
 * "Add candidate from a CV" through the API, against the local S3 and the file worker its events
 * drive: an upload issued with purpose new_person is checked on landing and offers the email and
 * phone of its text (GET /api/v1/uploads/{id}); refused bytes say so and are deleted; another
 * workspace learns nothing; attaching the upload deletes the suggestions; the record is alone in
 * its partition and lives a day at most.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../../lib/store/client';
import * as f from '../../helpers/file-fixtures';
import { scanTable } from '../../helpers/scan';
import { type Stack, startStack, type TestTenant } from '../../helpers/stack';
import { until } from '../../helpers/until';

let stack: Stack;
let t: TestTenant;
let other: TestTenant;
let token: string;
let otherToken: string;

beforeAll(async () => {
  stack = await startStack({ files: true });
  t = await stack.tenant();
  other = await stack.tenant();
  token = await t.token(['*']);
  otherToken = await other.token(['*']);
});
afterAll(async () => {
  await stack?.close();
});

const PDF = 'application/pdf';

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

async function upload(bytes: Uint8Array, contentType: string, purpose?: string) {
  const res = await stack.call('POST', '/api/v1/uploads', {
    token,
    body: { filename: 'cv.pdf', content_type: contentType, size: bytes.length, ...(purpose && { purpose }) },
  });
  expect(res.status, res.text).toBe(201);
  const up = res.body.data as { upload_id: string; url: string; fields: Record<string, string> };
  const form = new FormData();
  for (const [k, v] of Object.entries(up.fields)) form.append(k, v);
  form.append('file', new Blob([bytes]), 'cv.pdf');
  const posted = await fetch(up.url, { method: 'POST', body: form });
  expect(posted.status).toBeLessThan(300);
  return up.upload_id;
}

const status = (id: string, tok = token) => stack.call('GET', `/api/v1/uploads/${id}`, { token: tok });

/** The worker the landing's S3 event started has recorded its finding. */
const checked = (id: string) =>
  until('the upload checked', async () => {
    const res = await status(id);
    return res.body.data?.status !== 'processing' && res;
  });

describe('an upload for a new person', () => {
  it('offers the email and phone found in the CV, and never the text', async () => {
    const id = await upload(f.pdf(), PDF, 'new_person');
    const res = await checked(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({
      upload_id: id,
      status: 'ready',
      suggestions: { email: 'ada.lovelace@example.com', phone: '+44 20 7946 0958' },
    });
    const items = (await scanTable()).filter((i) => JSON.stringify(i).includes(id));
    expect(JSON.stringify(items)).not.toContain('Bernoulli');
  });

  it('refuses bytes that are not what was declared, and deletes them', async () => {
    const id = await upload(f.html(), PDF, 'new_person');
    const res = await checked(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({ upload_id: id, status: 'refused', suggestions: {} });
    expect(walk(stack.files!.directory).filter((p) => p.includes(id))).toEqual([]);
  });

  it('is unknown to another workspace, and an upload without the purpose is not checked', async () => {
    const id = await upload(f.pdf(), PDF, 'new_person');
    await checked(id);
    const res = await status(id, otherToken);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('upload_not_found');
    expect(res.text).not.toContain('ada.lovelace');
    const plain = await upload(f.pdf(), PDF);
    await stack.files!.idle();
    expect((await status(plain)).status).toBe(404);
    expect((await status(randomUUID())).status).toBe(404);
  });

  it('deletes the suggestions when the upload is attached to the new person', async () => {
    const id = await upload(f.pdf(), PDF, 'new_person');
    expect((await checked(id)).body.data.status).toBe('ready');
    const created = await stack.call('POST', '/api/v1/candidates', {
      token,
      body: { name: 'Ada Lovelace', email: `ada-${randomUUID().slice(0, 8)}@example.com` },
    });
    expect(created.status, created.text).toBe(201);
    const attached = await stack.call('POST', `/api/v1/people/${created.body.data.person_id}/files`, {
      token,
      body: { upload_id: id, kind: 'resume' },
    });
    expect(attached.status, attached.text).toBe(202);
    expect((await status(id)).status).toBe(404);
    const left = (await scanTable()).filter((i) => JSON.stringify(i).includes(id) && i.type === 'upload');
    expect(left).toEqual([]);
  });

  it('keeps the suggestions on a record alone in its partition, for a day at most (TTL), and none after', async () => {
    const before = Math.floor(Date.now() / 1000);
    const id = await upload(f.pdf(), PDF, 'new_person');
    expect((await checked(id)).body.data.status).toBe('ready');
    const after = Math.floor(Date.now() / 1000);
    const records = (await scanTable()).filter((i) => JSON.stringify(i).includes(id));
    expect(records).toHaveLength(1);
    const record = records[0]!;
    // Its own partition: the file worker's IAM names `T#*#UPLOAD#*` and nothing else of a workspace.
    expect(record).toMatchObject({ PK: `T#${t.id}#UPLOAD#${id}`, SK: 'UPLOAD', type: 'upload', check_status: 'ready' });
    expect(record.suggestions).toEqual({ email: 'ada.lovelace@example.com', phone: '+44 20 7946 0958' });
    const day = 24 * 60 * 60;
    expect(record.expires_at).toBeGreaterThanOrEqual(before + day);
    expect(record.expires_at).toBeLessThanOrEqual(after + day);
    // Past its TTL, before DynamoDB has removed it, no read answers it.
    await ddb.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { PK: record.PK, SK: record.SK },
        UpdateExpression: 'SET expires_at = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const gone = await status(id);
    expect(gone.status).toBe(404);
    expect(gone.text).not.toContain('ada.lovelace');
  });

  it('answers 400 for an unknown purpose', async () => {
    const res = await stack.call('POST', '/api/v1/uploads', {
      token,
      body: { filename: 'cv.pdf', content_type: PDF, size: 10, purpose: 'other' },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('purpose');
  });
});
