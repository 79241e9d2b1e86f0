/**
 * The files bucket against the local S3 (s3rver, dev/s3.ts): a presigned POST upload as a
 * browser sends it, the after-landing check (HeadObject, then the bytes), the move to the file
 * key, a download link, and the deletion of every version. s3rver enforces none of the POST
 * policy, so the replays below land, and it is the after-landing check that catches each one:
 * exactly what keeps the service safe where the policy is not enforced.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isIssuedUploadKey } from '../../../lib/files/keys';
import type { AllowedContentType } from '../../../lib/files/limits';
import { inspectFile } from '../../../lib/files/sniff';
import { checkDetected, checkLanded, type IssuedUpload } from '../../../lib/files/verify';
import * as f from '../../helpers/file-fixtures';
import { useLocalS3 } from '../../helpers/local-s3';
import { sha256Of } from '../../../lib/files/hash';
import * as presign from '../../../lib/files/presign';
import * as storage from '../../../lib/files/storage';

const local = useLocalS3();
const TENANT = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
let seq = 0;
const nextUploadId = () => `0190a1b2-c3d4-7e5f-8a9b-${String(++seq).padStart(12, '0')}`;

/** POST the form as a browser does: the fields in order, then the file. `tamper` changes what is sent, not what was signed. */
async function post(up: Awaited<ReturnType<typeof presign.presignUpload>>, bytes: Uint8Array, tamper: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...up.fields, ...tamper })) form.append(k, v);
  form.append('file', new Blob([bytes]), 'cv.pdf');
  return fetch(up.url, { method: 'POST', body: form });
}

/** An upload issued for `bytes` as `contentType`, with the record the service would keep. */
async function issue(bytes: Uint8Array, contentType: AllowedContentType) {
  const uploadId = nextUploadId();
  const up = await presign.presignUpload({ tenantId: TENANT, uploadId, contentType, size: bytes.length });
  const issued: IssuedUpload = { tenantId: TENANT, uploadId, key: up.key, size: bytes.length, contentType };
  return { up, issued };
}

/** The whole after-landing check: HeadObject against what was issued, then the type from the bytes. */
async function verify(issued: IssuedUpload) {
  const landed = checkLanded(issued, await storage.headObject(issued.key));
  if (!landed.ok) return landed;
  const bytes = await storage.readObject(issued.key);
  const inspected = await inspectFile(bytes);
  if (!inspected.ok) return inspected;
  return checkDetected(issued, inspected.contentType);
}

describe('presigned POST upload to the local S3', () => {
  it('the policy pins the key (ids only), the exact size, the exact type, for 10 minutes; the URL is path-style', async () => {
    const pdf = f.pdf();
    const { up, issued } = await issue(pdf, 'application/pdf');
    expect(up.url).toBe(`${local.s3().endpoint}/${local.s3().bucket}`);
    expect(up.key).toBe(`uploads/${TENANT}/${issued.uploadId}`);
    const policy = JSON.parse(Buffer.from(up.fields.Policy!, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([['content-length-range', pdf.length, pdf.length], { 'Content-Type': 'application/pdf' }, { key: up.key }]),
    );
    const ttl = Date.parse(policy.expiration) - Date.now();
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });

  it('an upload lands, passes HeadObject and the byte check, moves to its file key with the bytes type, and downloads as an attachment', async () => {
    const pdf = f.pdf();
    const { up, issued } = await issue(pdf, 'application/pdf');
    const res = await post(up, pdf);
    expect(res.status).toBeLessThan(300);
    expect(await verify(issued)).toEqual({ ok: true });

    const sha = createHash('sha256').update(pdf).digest('hex');
    expect(await sha256Of([await storage.readObject(issued.key)])).toBe(sha);

    const fileKey = `files/${TENANT}/${nextUploadId()}/${nextUploadId()}`;
    await storage.promoteUpload(issued.key, fileKey, 'application/pdf');
    expect(await storage.headObject(issued.key)).toBeUndefined();
    expect(await storage.headObject(fileKey)).toEqual({ size: pdf.length, contentType: 'application/pdf' });

    const link = await storage.downloadUrl(fileKey, { filename: 'Ada Lovelace CV.pdf', contentType: 'application/pdf' });
    expect(new URL(link).searchParams.get('X-Amz-Expires')).toBe('300');
    const got = await fetch(link);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename="Ada Lovelace CV.pdf"/);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
  });

  it('the objects live under the directory given (DATA_DIR for npm start), and no key or path holds a filename', async () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
    const paths = walk(local.directory()).map((p) => p.slice(local.directory().length));
    expect(paths.some((p) => p.includes(TENANT))).toBe(true);
    expect(paths.filter((p) => /cv\.pdf|Lovelace/i.test(p))).toEqual([]);
    // Nor does anything s3rver keeps beside the bytes (its metadata files).
    for (const p of paths.filter((x) => x.endsWith('metadata.json'))) {
      expect(readFileSync(`${local.directory()}${p}`, 'utf8'), p).not.toMatch(/cv\.pdf|Lovelace/);
    }
  });
});

describe('the after-landing check catches what the local S3 lets through', () => {
  it('a POST replayed with another size lands (s3rver checks no policy) and is refused: file_size_mismatch', async () => {
    const { up, issued } = await issue(f.pdf(), 'application/pdf');
    const bigger = f.pdf([f.CV_LINES, f.CV_LINES]);
    expect((await post(up, bigger)).status).toBeLessThan(300);
    expect(await verify(issued)).toMatchObject({ ok: false, code: 'file_size_mismatch' });
  });

  it('a POST replayed with another content type lands and is refused: file_type_mismatch', async () => {
    const html = f.html();
    const { up, issued } = await issue(html, 'text/plain');
    expect((await post(up, html, { 'Content-Type': 'text/html' })).status).toBeLessThan(300);
    expect(await verify(issued)).toMatchObject({ ok: false, code: 'file_type_mismatch' });
  });

  it('a POST with a tampered signature, or to another key, lands elsewhere: the issued key stays empty', async () => {
    const pdf = f.pdf();
    const { up, issued } = await issue(pdf, 'application/pdf');
    const otherKey = `uploads/${TENANT}/someone-else`;
    expect((await post(up, pdf, { key: otherKey, 'X-Amz-Signature': '0'.repeat(64) })).status).toBeLessThan(300);
    expect(await verify(issued)).toMatchObject({ ok: false, code: 'upload_not_found' });
    expect(isIssuedUploadKey(otherKey, TENANT, issued.uploadId)).toBe(false);
    await storage.deleteEveryVersion(otherKey);
  });

  it('an HTML page declared and sent as a PDF passes HeadObject, and its bytes refuse it; then every version is deleted', async () => {
    const html = f.html();
    const { up, issued } = await issue(html, 'application/pdf');
    expect((await post(up, html)).status).toBeLessThan(300);
    expect(checkLanded(issued, await storage.headObject(issued.key))).toEqual({ ok: true });
    expect(await verify(issued)).toMatchObject({ ok: false, code: 'file_type_not_allowed' });
    expect(await storage.deleteEveryVersion(issued.key)).toBe(1);
    expect(await storage.headObject(issued.key)).toBeUndefined();
  });

  it('a DOCX zip bomb declared as a DOCX is refused from its directory', async () => {
    const bomb = f.zipBombDocx();
    const type = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    const { up, issued } = await issue(bomb, type);
    expect((await post(up, bomb)).status).toBeLessThan(300);
    expect(await verify(issued)).toMatchObject({ ok: false, code: 'archive_too_large' });
  });
});

describe('presignUpload and readObject refuse what is out of bounds', () => {
  it('a type that is not allowed, or a size of 0 or past 20 MB, gets no upload', async () => {
    const base = { tenantId: TENANT, uploadId: nextUploadId(), size: 10 };
    await expect(presign.presignUpload({ ...base, contentType: 'text/html' as AllowedContentType })).rejects.toThrow(
      'content type not allowed',
    );
    await expect(presign.presignUpload({ ...base, contentType: 'application/pdf', size: 0 })).rejects.toThrow('size out of range');
    await expect(presign.presignUpload({ ...base, contentType: 'application/pdf', size: 20 * 1024 * 1024 + 1 })).rejects.toThrow(
      'size out of range',
    );
    await expect(presign.presignUpload({ ...base, uploadId: 'cv of Ada.pdf', contentType: 'application/pdf' })).rejects.toThrow();
  });

  it('readObject stops past its bound instead of holding the bytes', async () => {
    const bytes = f.txt(['a'.repeat(1000)]);
    const { up, issued } = await issue(bytes, 'text/plain');
    await post(up, bytes);
    await expect(storage.readObject(issued.key, 100)).rejects.toThrow('larger than allowed');
    expect((await storage.readObject(issued.key)).length).toBe(bytes.length);
    await storage.deleteEveryVersion(issued.key);
  });
});

describe('deleteEveryVersion', () => {
  it('deletes exactly the key (not its prefix siblings), every version, and answers 0 when nothing is there', async () => {
    const a = f.txt(['a']);
    const { up: up1, issued: one } = await issue(a, 'text/plain');
    await post(up1, a);
    const sibling = `${one.key}0`;
    await post({ ...up1, fields: { ...up1.fields, key: sibling } }, a);
    expect(await storage.deleteEveryVersion(one.key)).toBe(1);
    expect(await storage.headObject(one.key)).toBeUndefined();
    expect(await storage.headObject(sibling)).toBeDefined();
    expect(await storage.deleteEveryVersion(one.key)).toBe(0);
    await storage.deleteEveryVersion(sibling);
  });
});
