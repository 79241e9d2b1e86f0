/**
 * `npm start` runs a local S3 and a local SES beside DynamoDB Local: the banner says where sent
 * mail is read and where the bucket is, the functions' variables (runtime.json) point at them, a
 * presigned POST from the console's origin lands under DATA_DIR, any site's page may POST an upload
 * (only the console may GET), mail sent through lib/email
 * shows in the viewer's store, an application's confirmation arrives there and its withdraw link
 * erases the applicant once, one SIGTERM stops both, and a restart finds the objects again.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHEAP_PASSWORDS, e2eSandbox, processesMentioning, type Running, stopLocal } from '../helpers/processes';
import * as f from '../helpers/file-fixtures';
import { sentMail } from '../../dev/ses';
import { localClient } from '../../dev/table';
import { FORM_MIN_MS, issueFormToken } from '../../lib/domain/form-token';
import { until } from '../helpers/until';

const { freshDir, startLocal, cleanup } = e2eSandbox();
afterAll(() => cleanup(10_000), 60_000);

const ENV = ['S3_ENDPOINT', 'FILES_BUCKET', 'SES_ENDPOINT', 'MAIL_FROM'] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
afterAll(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  vi.resetModules();
});

const formKey = randomBytes(32).toString('base64url');

describe('npm start with the local S3 and SES', { timeout: 120_000 }, () => {
  let dataDir: string;
  let running: Running;
  let runtime: {
    url: string;
    s3Endpoint: string;
    filesBucket: string;
    sesEndpoint: string;
    dynamodbEndpoint: string;
    tableName: string;
  };
  let key: string;

  beforeAll(async () => {
    dataDir = freshDir('files');
    // The form token key, given as a deploy gives it, so that this test can sign the form a browser would have read.
    running = await startLocal(dataDir, undefined, { FORM_TOKEN_SECRET: formKey, ...CHEAP_PASSWORDS });
    runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
    // This test process plays a function: the same variables npm start gives its functions.
    process.env.S3_ENDPOINT = runtime.s3Endpoint;
    process.env.FILES_BUCKET = runtime.filesBucket;
    process.env.SES_ENDPOINT = runtime.sesEndpoint;
    process.env.MAIL_FROM = 'Talent Pipeline <no-reply@talent-pipeline.localhost>';
    vi.resetModules();
  });

  it('prints where sent mail is read and where the bucket is, and names both in runtime.json', async () => {
    const out = running.stdout();
    const mail = /^\s*Sent mail\s+(http:\/\/127\.0\.0\.1:\d+\/)\s/m.exec(out)?.[1];
    const files = /^\s*Files \(S3\)\s+(http:\/\/127\.0\.0\.1:\d+)\/(\S+)\s/m.exec(out);
    expect(mail).toBe(`${runtime.sesEndpoint}/`);
    expect(files?.[1]).toBe(runtime.s3Endpoint);
    expect(files?.[2]).toBe(runtime.filesBucket);
    const viewer = await fetch(mail!);
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('a presigned POST from the console origin lands under DATA_DIR/s3', async () => {
    const { presignUpload } = await import('../../lib/files/presign');
    const { headObject } = await import('../../lib/files/storage');
    const pdf = f.pdf();
    const up = await presignUpload({ tenantId: 'tenant-1', uploadId: 'upload-1', contentType: 'application/pdf', size: pdf.length });
    key = up.key;
    const form = new FormData();
    for (const [k, v] of Object.entries(up.fields)) form.append(k, v);
    form.append('file', new Blob([pdf]), 'cv.pdf');
    const res = await fetch(up.url, { method: 'POST', body: form, headers: { Origin: runtime.url } });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBeTruthy();
    expect(await headObject(key)).toEqual({ size: pdf.length, contentType: 'application/pdf' });
    expect(existsSync(join(dataDir, 's3', runtime.filesBucket, 'uploads', 'tenant-1'))).toBe(true);
  });

  it("any site's page may POST an upload (the public CV upload's CORS, as deployed) and read its answer; only the console may GET", async () => {
    const { presignUpload } = await import('../../lib/files/presign');
    const { headObject } = await import('../../lib/files/storage');
    const elsewhere = 'https://jobs.elsewhere.example';
    const preflight = await fetch(`${runtime.s3Endpoint}/${runtime.filesBucket}`, {
      method: 'OPTIONS',
      // An upload with a progress listener is preflighted, as is a custom header.
      headers: { Origin: elsewhere, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-requested-with' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    const pdf = f.pdf();
    const up = await presignUpload({ tenantId: 'tenant-1', uploadId: 'upload-any-site', contentType: 'application/pdf', size: pdf.length });
    const form = new FormData();
    for (const [k, v] of Object.entries(up.fields)) form.append(k, v);
    form.append('file', new Blob([pdf]), 'cv.pdf');
    const res = await fetch(up.url, { method: 'POST', body: form, headers: { Origin: elsewhere } });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await headObject(up.key)).toEqual({ size: pdf.length, contentType: 'application/pdf' });
    // Reads are the console's alone: another origin's GET is neither preflighted nor answered with CORS.
    const getPreflight = await fetch(`${runtime.s3Endpoint}/${runtime.filesBucket}/${up.key}`, {
      method: 'OPTIONS',
      headers: { Origin: elsewhere, 'Access-Control-Request-Method': 'GET' },
    });
    expect(getPreflight.headers.get('access-control-allow-origin')).toBeNull();
    const consoleGet = await fetch(`${runtime.s3Endpoint}/${runtime.filesBucket}`, {
      method: 'OPTIONS',
      headers: { Origin: runtime.url, 'Access-Control-Request-Method': 'GET' },
    });
    expect(consoleGet.headers.get('access-control-allow-origin')).toBe('*');
    expect(consoleGet.headers.get('access-control-allow-methods')).toBe('POST, GET');
  });

  it('mail sent through lib/email is in the local SES store', async () => {
    const { sendEmail } = await import('../../lib/email/send');
    const { messageId } = await sendEmail({
      to: ['ada@example.com'],
      subject: 'Application received',
      text: 'Thanks',
      html: '<p>Thanks</p>',
    });
    expect((await sentMail(runtime.sesEndpoint)).map((m) => m.messageId)).toContain(messageId);
  });

  it("an application's confirmation arrives in the local SES, and its link withdraws and erases the applicant once", async () => {
    const token = readFileSync(join(dataDir, 'demo-token'), 'utf8').trim();
    const api = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${runtime.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, path).toBeLessThan(300);
      return (await res.json()) as { data: { id: string } };
    };
    const job = (await api('POST', '/api/v1/requisitions', { title: 'Mail Room Engineer' })).data.id;
    await api('PUT', `/api/v1/requisitions/${job}/posting`, { published: true, description: 'We send mail.', remote: 'no' });
    const mark = randomUUID().replace(/-/g, '').slice(0, 12);
    const email = `applicant-${mark}@apply.example.org`;
    const applied = await fetch(`${runtime.url}/api/boards/demo/jobs/${job}/applications`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: `Applicant ${mark}`,
        email,
        answers: {},
        consent: { accepted: true, text: 'I have read the privacy notice.', version: '2026-01' },
        form_token: issueFormToken(formKey, 'demo', job, Date.now() - FORM_MIN_MS),
      }),
    });
    expect(applied.status).toBe(202);

    const mail = await until(
      'the confirmation in the local SES',
      async () => (await sentMail(runtime.sesEndpoint)).find((m) => m.destination.to.includes(email)),
      60_000,
      100,
    );
    expect(mail.subject).toMatch(/^Your application for Mail Room Engineer at /);
    const link = /http:\/\/\S+\/careers\/demo\/withdraw\?t=\S+/.exec(mail.body.text ?? '')?.[0];
    expect(link).toBeDefined();
    const page = await fetch(link!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Withdraw and erase my data');

    const t = new URL(link!).searchParams.get('t')!;
    const post = () =>
      fetch(`${runtime.url}/careers/demo/withdraw`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
        body: new URLSearchParams({ t }).toString(),
      });
    const first = await post();
    expect([first.status, (await first.text()).includes('Application withdrawn')]).toEqual([200, true]);
    // A full Scan of the table finds nothing of the applicant.
    const items: unknown[] = [];
    let ExclusiveStartKey: Record<string, never> | undefined;
    do {
      const p = await localClient(runtime.dynamodbEndpoint).send(new ScanCommand({ TableName: runtime.tableName, ExclusiveStartKey }));
      items.push(...(p.Items ?? []));
      ExclusiveStartKey = p.LastEvaluatedKey as never;
    } while (ExclusiveStartKey);
    expect(items.length).toBeGreaterThan(0);
    expect(JSON.stringify(items)).not.toContain(mark);
    const second = await post();
    expect([second.status, (await second.text()).includes('already withdrawn')]).toEqual([200, true]);
  });

  it('one SIGTERM stops the S3 and the SES with everything else; a restart finds the object again', async () => {
    expect(await stopLocal(running)).toEqual({ code: 0, signal: null });
    await expect(fetch(`${runtime.s3Endpoint}/`)).rejects.toThrow();
    await expect(fetch(`${runtime.sesEndpoint}/store`)).rejects.toThrow();
    expect(processesMentioning(dataDir)).toEqual([]);

    const again = await startLocal(dataDir, undefined, CHEAP_PASSWORDS);
    const next = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
    process.env.S3_ENDPOINT = next.s3Endpoint;
    vi.resetModules();
    const { headObject } = await import('../../lib/files/storage');
    expect(await headObject(key)).toMatchObject({ contentType: 'application/pdf' });
    expect(readdirSync(join(dataDir, 's3'))).toEqual([runtime.filesBucket]);
    expect(await stopLocal(again)).toEqual({ code: 0, signal: null });
  });
});
