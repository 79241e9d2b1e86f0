/**
 * A person's files through the API against the local S3 and the file worker its events drive
 * (as `npm start` runs them): upload by presigned POST, attach, the worker's check and text,
 * download, the same bytes once, delete; and the refusals, each by the bytes or by the
 * after-landing check (s3rver enforces no POST policy, so every replay lands and is caught there).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as f from '../../helpers/file-fixtures';
import { settleAudit } from '../../helpers/audit';
import { scanTable } from '../../helpers/scan';
import { dynamodbEndpoint } from '../../helpers/dynamodb-endpoint';
import { collectEvents, PASSWORD, type Stack, startStack, type TestTenant } from '../../helpers/stack';
import { until } from '../../helpers/until';
import type { WebhookEvent } from '../../../lib/webhooks/events';

let stack: Stack;
let t: TestTenant;
let other: TestTenant;
let token: string;
let otherToken: string;
const events: WebhookEvent[] = [];
let poller: { stop(): Promise<void> };

beforeAll(async () => {
  stack = await startStack({ files: true, stream: true });
  poller = await collectEvents(stack.tableName, dynamodbEndpoint(), events);
  t = await stack.tenant();
  other = await stack.tenant();
  token = await t.token(['*']);
  otherToken = await other.token(['*']);
});
afterAll(async () => {
  await poller?.stop();
  await stack?.close();
});

const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

// A person, as creating a candidate makes one (lib/store/people.ts).
async function person(tenant = t): Promise<string> {
  const tok = tenant === t ? token : otherToken;
  const res = await stack.call('POST', '/api/v1/candidates', {
    token: tok,
    body: { name: 'Ada Lovelace', email: `ada-${randomUUID().slice(0, 8)}@example.com` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.person_id;
}

async function upload(
  bytes: Uint8Array,
  contentType: string,
  opts: { tok?: string; filename?: string; tamper?: Record<string, string>; send?: Uint8Array } = {},
) {
  const res = await stack.call('POST', '/api/v1/uploads', {
    token: opts.tok ?? token,
    body: { filename: opts.filename ?? 'Ada Lovelace CV.pdf', content_type: contentType, size: bytes.length },
  });
  expect(res.status, res.text).toBe(201);
  const up = res.body.data as { upload_id: string; url: string; fields: Record<string, string> };
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...up.fields, ...opts.tamper })) form.append(k, v);
  form.append('file', new Blob([opts.send ?? bytes]), 'cv.pdf');
  const posted = await fetch(up.url, { method: 'POST', body: form });
  expect(posted.status).toBeLessThan(300);
  return up;
}

const attach = (personId: string, uploadId: string, tok = token, kind = 'resume') =>
  stack.call('POST', `/api/v1/people/${personId}/files`, { token: tok, body: { upload_id: uploadId, kind } });

/** Attach, then wait for the worker the copy's S3 event started, and read the file. */
async function attachAndProcess(personId: string, uploadId: string) {
  const res = await attach(personId, uploadId);
  expect(res.status, res.text).toBe(202);
  expect(res.body.data.status).toBe('processing');
  await stack.files!.idle();
  const got = await stack.call('GET', `/api/v1/people/${personId}/files/${res.body.data.id}`, { token });
  expect(got.status).toBe(200);
  return got.body.data;
}

/** Every file the local S3 keeps: objects and the metadata beside them. */
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

const objectKeys = async (prefix: string) => {
  const res = await fetch(`${stack.files!.s3.endpoint}/${stack.files!.s3.bucket}?list-type=2&prefix=${encodeURIComponent(prefix)}`);
  return [...(await res.text()).matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]!);
};

describe('upload, attach, read, download', () => {
  it('publishes the limits', async () => {
    const res = await stack.call('GET', '/api/v1/uploads/limits', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.max_bytes).toBe(20 * 1024 * 1024);
    expect(res.body.data.types.map((x: { content_type: string }) => x.content_type)).toContain(PDF);
  });

  it('a PDF: presigned POST pinned to its size and type, attached, checked, read, downloaded as an attachment', async () => {
    const pid = await person();
    const pdf = f.pdf();
    const up = await upload(pdf, PDF);
    const policy = JSON.parse(Buffer.from(up.fields.Policy!, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(expect.arrayContaining([['content-length-range', pdf.length, pdf.length], { 'Content-Type': PDF }]));
    expect(JSON.stringify(policy)).not.toMatch(/Lovelace/);

    const file = await attachAndProcess(pid, up.upload_id);
    expect(file).toMatchObject({
      status: 'ready',
      content_type: PDF,
      size: pdf.length,
      kind: 'resume',
      filename: 'Ada Lovelace CV.pdf',
      has_text: true,
    });
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);

    const text = await stack.call('GET', `/api/v1/people/${pid}/files/${file.id}/text`, { token });
    expect(text.status).toBe(200);
    expect(text.body.data.text).toContain(f.CV_LINES[0]);

    const list = await stack.call('GET', `/api/v1/people/${pid}/files`, { token });
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([file.id]);

    const dl = await fetch(`${stack.url}/api/v1/people/${pid}/files/${file.id}/download`, {
      headers: { Authorization: `Bearer ${token}` },
      redirect: 'manual',
    });
    expect(dl.status).toBe(302);
    const location = dl.headers.get('location')!;
    expect(Number(new URL(location).searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
    const got = await fetch(location);
    expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename="Ada Lovelace CV.pdf"/);
    expect(got.headers.get('content-type')).toBe(PDF);
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
    // One file.processed, ids and the outcome only.
    await until('file.processed', () => events.some((e) => e.type === 'file.processed' && e.data.fileId === file.id));
    const sent = events.filter((e) => e.type === 'file.processed' && e.data.fileId === file.id);
    expect(sent.map((e) => e.data)).toEqual([
      { fileId: file.id, personId: pid, kind: 'resume', status: 'ready', refusalCode: null, processedAt: file.processed_at },
    ]);
    expect(JSON.stringify(sent)).not.toMatch(/Lovelace/);
    // No key holds a name: ids only.
    expect((await objectKeys('')).filter((k) => /Lovelace|cv/i.test(k))).toEqual([]);
  });

  it('the same bytes attached twice to one person are one file (200, the first one); the second upload is gone', async () => {
    const pid = await person();
    const bytes = f.txt(['Ada Lovelace', 'ada@example.com']);
    const first = await attachAndProcess(pid, (await upload(bytes, 'text/plain')).upload_id);
    const again = await upload(bytes, 'text/plain');
    const res = await attach(pid, again.upload_id);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(first.id);
    expect(await objectKeys(`uploads/${t.id}/${again.upload_id}`)).toEqual([]);
    expect((await attach(pid, again.upload_id)).body.code).toBe('upload_not_found');
  });

  it('deletes a file: its bytes, its text and its record (audited); nothing of it is left in the bucket or the table', async () => {
    const pid = await person();
    const marker = `Ysolde${randomUUID().slice(0, 8)}`;
    const file = await attachAndProcess(
      pid,
      (await upload(f.txt(['delete me', marker]), 'text/plain', { filename: `${marker} CV.txt` })).upload_id,
    );
    expect(await objectKeys(`files/${t.id}/${pid}/`)).toHaveLength(1);
    const res = await stack.call('DELETE', `/api/v1/people/${pid}/files/${file.id}`, { token });
    expect(res.status).toBe(200);
    expect(await objectKeys(`files/${t.id}/${pid}/`)).toEqual([]);
    // No object, key or metadata file of the local S3 holds its bytes or name; no item holds either.
    expect((await objectKeys('')).filter((k) => k.includes(file.id) || k.includes(marker))).toEqual([]);
    for (const path of walk(stack.files!.directory)) expect(readFileSync(path).includes(marker), path).toBe(false);
    expect((await scanTable()).filter((i) => JSON.stringify(i).includes(marker))).toEqual([]);
    expect((await stack.call('GET', `/api/v1/people/${pid}/files/${file.id}`, { token })).status).toBe(404);
    expect((await stack.call('GET', `/api/v1/people/${pid}/files/${file.id}/text`, { token })).status).toBe(404);
    await settleAudit();
    const admin = await t.user('admin');
    const cookie = await stack.login(admin.email, PASSWORD);
    const audit = await stack.call('GET', '/api/audit', { headers: { Cookie: cookie } });
    expect(audit.status).toBe(200);
    const rec = audit.body.data.find(
      (r: { action: string; target: { id: string } }) => r.action === 'file.deleted' && r.target.id === file.id,
    );
    expect(rec.changes).toEqual(expect.arrayContaining([{ field: 'filename' }]));
    expect(JSON.stringify(audit.body)).not.toMatch(/delete me|Lovelace CV/);
  });
});

describe('refusals', () => {
  it.each([
    ['an HTML page named cv.pdf, declared a PDF', f.html(), PDF, 'file_type_not_allowed'],
    ['an SVG with a script, declared text', f.svgWithScript(), 'text/plain', 'file_type_not_allowed'],
    ['an executable, declared a PDF', f.elf(), PDF, 'file_type_not_allowed'],
    ['a zip bomb DOCX', f.zipBombDocx(), DOCX, 'archive_too_large'],
    ['a PDF declared as text', f.pdf(), 'text/plain', 'file_type_mismatch'],
  ])('%s: refused by its bytes, its object deleted', async (_name, bytes, type, code) => {
    const pid = await person();
    const file = await attachAndProcess(pid, (await upload(bytes, type)).upload_id);
    expect(file).toMatchObject({ status: 'refused', refusal_code: code, has_text: false });
    expect(await objectKeys(`files/${t.id}/${pid}/`)).toEqual([]);
    const text = await stack.call('GET', `/api/v1/people/${pid}/files/${file.id}/text`, { token });
    expect([text.status, text.body.code]).toEqual([409, 'file_not_ready']);
  });

  it('a POST replayed with another size lands on the local S3 and the attach refuses it (422 file_size_mismatch); nothing is kept', async () => {
    const pid = await person();
    const up = await upload(f.pdf(), PDF, { send: f.pdf([f.CV_LINES, f.CV_LINES]) });
    const res = await attach(pid, up.upload_id);
    expect([res.status, res.body.code, res.body.field]).toEqual([422, 'file_size_mismatch', 'upload_id']);
    expect(await objectKeys(`uploads/${t.id}/${up.upload_id}`)).toEqual([]);
    expect((await stack.call('GET', `/api/v1/people/${pid}/files`, { token })).body.data).toEqual([]);
  });

  it('a POST replayed with another content type is refused (422 file_type_mismatch)', async () => {
    const pid = await person();
    const up = await upload(f.txt(), 'text/plain', { tamper: { 'Content-Type': 'text/html' } });
    const res = await attach(pid, up.upload_id);
    expect([res.status, res.body.code]).toEqual([422, 'file_type_mismatch']);
  });

  it('an upload over the size is refused before it is issued', async () => {
    const res = await stack.call('POST', '/api/v1/uploads', {
      token,
      body: { filename: 'big.pdf', content_type: PDF, size: 20 * 1024 * 1024 + 1 },
    });
    expect([res.status, res.body.field]).toEqual([400, 'size']);
    const html = await stack.call('POST', '/api/v1/uploads', { token, body: { filename: 'x.html', content_type: 'text/html', size: 10 } });
    expect([html.status, html.body.field]).toEqual([400, 'content_type']);
  });
});

describe('erasure', () => {
  it("erasing a person's candidate deletes the person's files: every object version, the text and the records; the receipt counts them", async () => {
    const marker = `Zebulon${randomUUID().slice(0, 8)}`;
    const res = await stack.call('POST', '/api/v1/candidates', {
      token,
      body: { name: `${marker} Quint`, email: `${marker.toLowerCase()}@example.com` },
    });
    const candidateId = res.body.data.id as string;
    const pid = res.body.data.person_id as string;
    const cv = await attachAndProcess(
      pid,
      (await upload(f.txt([`${marker} Quint`, `${marker}@mail.example`]), 'text/plain', { filename: `${marker} CV.txt` })).upload_id,
    );
    const letter = await attachAndProcess(
      pid,
      (await upload(f.pdf([[marker, 'Cover letter']]), PDF, { filename: `${marker} letter.pdf` })).upload_id,
    );
    expect([cv.status, letter.status]).toEqual(['ready', 'ready']);
    expect(await objectKeys(`files/${t.id}/${pid}/`)).toHaveLength(2);

    const erased = await stack.call('POST', `/api/v1/candidates/${candidateId}/erase`, { token });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.data.person).toMatchObject({ id: pid, files: 2 });

    // The bucket: nothing under the person, and no key anywhere holds their values.
    expect(await objectKeys(`files/${t.id}/${pid}/`)).toEqual([]);
    expect((await objectKeys('')).filter((k) => k.includes(marker))).toEqual([]);
    // Nor does anything the local S3 keeps beside the bytes (metadata files), nor the bytes themselves.
    for (const file of walk(stack.files!.directory)) expect(readFileSync(file).includes(marker), file).toBe(false);
    // The table: no file, text or guard of the person, and no item holds the marker.
    const items = await scanTable();
    expect(items.filter((i) => String(i.PK).includes(pid) && /^(FILE|FILETEXT|GUARD#FILE)#/.test(String(i.SK)))).toEqual([]);
    expect(items.filter((i) => JSON.stringify(i).includes(marker))).toEqual([]);
    expect((await stack.call('GET', `/api/v1/people/${pid}/files`, { token })).status).toBe(404);
  });
});

describe('isolation', () => {
  it('another workspace cannot attach, list, read, download or delete, even with the upload_id and file id', async () => {
    const pid = await person();
    const up = await upload(f.txt(['private']), 'text/plain');
    const otherPid = await person(other);
    // Its upload_id in another workspace's attach: no such upload there.
    const stolen = await attach(otherPid, up.upload_id, otherToken);
    expect([stolen.status, stolen.body.code]).toEqual([404, 'upload_not_found']);
    const file = await attachAndProcess(pid, up.upload_id);
    for (const path of [
      `/api/v1/people/${pid}/files`,
      `/api/v1/people/${pid}/files/${file.id}`,
      `/api/v1/people/${pid}/files/${file.id}/text`,
      `/api/v1/people/${pid}/files/${file.id}/download`,
    ]) {
      const res = await fetch(`${stack.url}${path}`, { headers: { Authorization: `Bearer ${otherToken}` }, redirect: 'manual' });
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toMatch(/private|Lovelace/);
    }
    expect((await stack.call('DELETE', `/api/v1/people/${pid}/files/${file.id}`, { token: otherToken })).status).toBe(404);
    // Another person of the same workspace does not reach it either.
    const elsewhere = await person();
    expect((await stack.call('GET', `/api/v1/people/${elsewhere}/files/${file.id}`, { token })).status).toBe(404);
    expect((await stack.call('GET', `/api/v1/people/${pid}/files/${file.id}`, { token })).status).toBe(200);
  });

  it('a token without candidates:write cannot upload or attach; without candidates:read cannot list', async () => {
    const pid = await person();
    const reader = await t.token(['candidates:read']);
    const writer = await t.token(['candidates:write']);
    expect(
      (await stack.call('POST', '/api/v1/uploads', { token: reader, body: { filename: 'a.txt', content_type: 'text/plain', size: 3 } }))
        .status,
    ).toBe(403);
    expect((await attach(pid, randomUUID(), reader)).status).toBe(403);
    expect((await stack.call('GET', `/api/v1/people/${pid}/files`, { token: writer })).status).toBe(403);
    expect((await stack.call('GET', `/api/v1/people/${pid}/files`, { token: reader })).status).toBe(200);
  });
});
