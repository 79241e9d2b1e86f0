/**
 * An applicant's CV, against the local S3 and the workers: the public upload route hands out a
 * presigned POST under the job (size capped in its policy); the application names the upload, the
 * server checks it (this job's, there, unused, within the size) and the posting's CV rule, each
 * refusal with `field: cv`; the worker attaches it to the person through the files flow (the text
 * read by the file worker). Without JavaScript: the careers page's CV step (and the upload route,
 * for a form post asking for HTML) answers a page whose form posts to storage, which sends the
 * browser back to the job page with the upload's id.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { careersCsp } from '../../../lib/careers/page';
import { FORM_MIN_MS, issueFormToken } from '../../../lib/domain/form-token';
import { newId } from '../../../lib/ids';
import { claimOwner } from '../../../lib/store/people';
import * as f from '../../helpers/file-fixtures';
import { startStack, type Stack, type TestTenant } from '../../helpers/stack';
import { until } from '../../helpers/until';

let stack: Stack;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  stack = await startStack({ imports: true, files: true });
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
});
afterAll(async () => {
  await stack?.close();
});

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

async function publishedJob(cv?: string): Promise<string> {
  const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Platform Engineer' } });
  const id = req.body.data.id as string;
  const put = await stack.call('PUT', `/api/v1/requisitions/${id}/posting`, {
    token,
    body: { published: true, description: 'We build pipelines.', ...(cv && { cv }) },
  });
  expect(put.status, put.text).toBe(200);
  return id;
}

const formToken = (jobId: string) => issueFormToken(process.env.FORM_TOKEN_SECRET!, tenant.slug, jobId, Date.now() - FORM_MIN_MS);

const askUpload = (jobId: string, body: Record<string, unknown> = { form_token: formToken(jobId) }) =>
  stack.call('POST', `/api/boards/${tenant.slug}/jobs/${jobId}/uploads`, { body });

async function uploadCv(jobId: string, bytes: Uint8Array): Promise<string> {
  const res = await askUpload(jobId);
  expect(res.status, res.text).toBe(201);
  const up = res.body.data as { upload_id: string; url: string; fields: Record<string, string> };
  const form = new FormData();
  for (const [k, v] of Object.entries(up.fields)) form.append(k, v);
  form.append('file', new Blob([bytes]), 'cv.pdf');
  const posted = await fetch(up.url, { method: 'POST', body: form });
  expect(posted.status).toBeLessThan(300);
  return up.upload_id;
}

const application = (jobId: string, over: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  email: `ada-${newId().slice(-12)}@example.com`,
  consent: { accepted: true, text: 'I have read the privacy notice.', version: '2026-01' },
  form_token: formToken(jobId),
  ...over,
});

const apply = (jobId: string, body: Record<string, unknown>) =>
  stack.call('POST', `/api/boards/${tenant.slug}/jobs/${jobId}/applications`, { body });

describe('POST /api/boards/{slug}/jobs/{id}/uploads', () => {
  it('answers a presigned POST under the job, capped at 10 MB, with CORS for any origin', async () => {
    const job = await publishedJob();
    const res = await askUpload(job);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const { upload_id, fields, max_bytes } = res.body.data;
    expect(max_bytes).toBe(10 * 1024 * 1024);
    expect(fields.key).toBe(`uploads/${tenant.id}/${job}/${upload_id}`);
    const policy = JSON.parse(Buffer.from(fields.Policy, 'base64').toString('utf8'));
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 10 * 1024 * 1024]);
    expect(policy.conditions).toContainEqual({ key: fields.key });
    // The policy lapses within the hour, never after the form token (a day).
    expect(Date.parse(policy.expiration) - Date.now()).toBeLessThanOrEqual(3_600_000);
  });

  it('refuses a forged form token (field form_token), and answers 404 for a job that is not public', async () => {
    const job = await publishedJob();
    const forged = await askUpload(job, { form_token: 'v1.0.forged' });
    expect(forged.status).toBe(400);
    expect(forged.body.field).toBe('form_token');
    const hidden = await stack.call('PUT', `/api/v1/requisitions/${job}/posting`, { token, body: { published: false, description: 'x' } });
    expect(hidden.status).toBe(200);
    expect((await askUpload(job)).status).toBe(404);
    const off = await publishedJob('off');
    const refused = await askUpload(off);
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('cv');
  });
});

describe('an application with a CV', () => {
  it('attaches the CV to the person: the file worker reads it, and the upload is gone', async () => {
    const job = await publishedJob('required');
    const cv = await uploadCv(job, f.pdf());
    const body = application(job, { cv_upload_id: cv });
    const res = await apply(job, body);
    expect(res.status, res.text).toBe(202);
    const personId = await until('the person', () => claimOwner(tenant.id, body.email as string));
    const file = await until('the CV read', async () => {
      const list = await stack.call('GET', `/api/v1/people/${personId}/files`, { token });
      const found = list.body.data?.[0];
      return found?.status === 'ready' && found;
    });
    expect(file).toMatchObject({ kind: 'resume', content_type: 'application/pdf', has_text: true, uploaded_by: { type: 'applicant' } });
    const text = await stack.call('GET', `/api/v1/people/${personId}/files/${file.id}/text`, { token });
    expect(text.body.data.text).toContain('Bernoulli');
    expect(walk(stack.files!.directory).filter((p) => p.includes(cv))).toEqual([]);
    // Used once: the same upload again is refused.
    const again = await apply(job, application(job, { cv_upload_id: cv }));
    expect(again.status).toBe(400);
    expect(again.body.field).toBe('cv');
  });

  it('enforces the CV rule and refuses an upload of another job, a missing one and one past 10 MB, each with field cv', async () => {
    const job = await publishedJob('required');
    const other = await publishedJob();
    const refusal = async (body: Record<string, unknown>) => {
      const res = await apply(job, body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.field).toBe('cv');
      return res.body.error as string;
    };
    expect(await refusal(application(job))).toContain('CV is required');
    expect(await refusal(application(job, { cv_upload_id: await uploadCv(other, f.pdf()) }))).toContain('no CV was uploaded');
    expect(await refusal(application(job, { cv_upload_id: newId() }))).toContain('no CV was uploaded');
    // The local S3 takes a body past the policy's range; the application does not.
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(f.pdf());
    expect(await refusal(application(job, { cv_upload_id: await uploadCv(job, big) }))).toContain('larger than 10 MB');
    const off = await publishedJob('off');
    const res = await apply(off, application(off, { cv_upload_id: newId() }));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('cv');
  });
});

describe('the CV without JavaScript', () => {
  it('answers a page posting to storage, which returns to the job page with the upload', async () => {
    const job = await publishedJob('required');
    // A page, not the route's JSON: fetched as the browser's form post, past the JSON contract check.
    const res = await fetch(`${stack.url}/api/boards/${tenant.slug}/jobs/${job}/uploads`, {
      method: 'POST',
      body: new URLSearchParams({ form_token: formToken(job), source: 'meetup' }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html', Origin: stack.url },
    });
    const page = { status: res.status, headers: res.headers, text: await res.text() };
    expect(page.status, page.text).toBe(201);
    expect(page.headers.get('content-type')).toContain('text/html');
    const bucket = new URL(stack.files!.s3.endpoint).origin;
    expect(page.headers.get('content-security-policy')).toContain(`form-action ${bucket} 'self'`);
    expect(page.text).toContain(`action="${bucket}/`);
    const fields = Object.fromEntries(
      [...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&')]),
    );
    const upload = (fields.key as string).split('/').pop()!;
    expect(fields.success_action_redirect).toBe(`${stack.url}/careers/${tenant.slug}/jobs/${job}?cv=${upload}&src=meetup`);
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([f.pdf()]), 'cv.pdf');
    const action = /<form method="post" action="([^"]+)" enctype="multipart\/form-data">/.exec(page.text)![1]!;
    const posted = await fetch(action, { method: 'POST', body: form, redirect: 'manual' });
    expect(posted.status).toBe(303);
    const back = new URL(posted.headers.get('location')!);
    expect(back.searchParams.get('cv')).toBe(upload);
    const jobPage = await stack.call('GET', `${back.pathname}${back.search}`);
    expect(jobPage.status).toBe(200);
    expect(jobPage.text).toContain(`name="cv_upload_id" value="${upload}"`);
    expect(jobPage.text).toContain('Your CV is uploaded.');
    // Without the upload, a job that requires a CV shows the CV step alone.
    const first = await stack.call('GET', `/careers/${tenant.slug}/jobs/${job}`);
    expect(first.text).toContain('Upload your CV');
    expect(first.text).not.toContain('/applications"');
  });
});

describe("the careers page's CV step: POST /careers/{slug}/jobs/{id}/cv", () => {
  /** The job page's form post: urlencoded, and `Origin: null` as a page served with no-referrer posts it. */
  const step = (slug: string, jobId: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${stack.url}/careers/${slug}/jobs/${jobId}/cv`, {
      method: 'POST',
      body: new URLSearchParams(form).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'null', ...headers },
    }).then(async (res) => ({ status: res.status, headers: res.headers, text: await res.text() }));

  it("is where the job page's CV form posts, and answers the upload page under the careers CSP, storage its one other form target", async () => {
    const job = await publishedJob('required');
    const jobPage = await stack.call('GET', `/careers/${tenant.slug}/jobs/${job}`);
    expect(jobPage.text).toContain(`<form method="post" action="/careers/${tenant.slug}/jobs/${job}/cv"`);
    expect(jobPage.text).not.toContain('/uploads"');
    // No Accept header: the careers route answers a page to any client.
    const page = await step(tenant.slug, job, { form_token: formToken(job), source: 'meetup' });
    expect(page.status, page.text).toBe(201);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const bucket = new URL(stack.files!.s3.endpoint).origin;
    expect(page.headers.get('content-security-policy')).toBe(careersCsp(bucket));
    // The page's one style block is the one the CSP's hash allows; no script of any kind.
    const style = /<style>([^<]*)<\/style>/.exec(page.text)![1]!;
    expect(page.headers.get('content-security-policy')).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(page.text).not.toMatch(/<script|\son\w+=/i);
    const fields = Object.fromEntries(
      [...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&')]),
    );
    const upload = (fields.key as string).split('/').pop()!;
    expect(fields.key).toBe(`uploads/${tenant.id}/${job}/${upload}`);
    expect(fields.success_action_redirect).toBe(`${stack.url}/careers/${tenant.slug}/jobs/${job}?cv=${upload}&src=meetup`);
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([f.pdf()]), 'cv.pdf');
    const action = /<form method="post" action="([^"]+)" enctype="multipart\/form-data">/.exec(page.text)![1]!;
    expect(action.startsWith(`${bucket}/`)).toBe(true);
    const posted = await fetch(action, { method: 'POST', body: form, redirect: 'manual' });
    expect(posted.status).toBe(303);
    expect(new URL(posted.headers.get('location')!).searchParams.get('cv')).toBe(upload);
  });

  it('answers the not-found page for another workspace, an unpublished posting, a requisition on hold and a malformed id', async () => {
    const job = await publishedJob('optional');
    const other = await stack.tenant();
    const notFound = async (slug: string, id: string, what: string) => {
      const page = await step(slug, id, { form_token: formToken(job) });
      expect([page.status, page.headers.get('content-type')], what).toEqual([404, 'text/html; charset=utf-8']);
      expect(page.text, what).not.toContain('Platform Engineer');
      expect(page.text, what).not.toContain('uploads/');
    };
    await notFound(other.slug, job, "another workspace's slug");
    await notFound('no-such-board', job, 'a slug of no workspace');
    await notFound(tenant.slug, 'x'.repeat(65), 'a malformed id');
    const held = await publishedJob('optional');
    const hold = await stack.call('POST', `/api/v1/requisitions/${held}/status`, { token, body: { status: 'on_hold', reason: 'budget' } });
    expect(hold.status, hold.text).toBe(200);
    await notFound(tenant.slug, held, 'a requisition on hold');
    const hidden = await stack.call('PUT', `/api/v1/requisitions/${job}/posting`, { token, body: { published: false, description: 'x' } });
    expect(hidden.status).toBe(200);
    await notFound(tenant.slug, job, 'an unpublished posting');
  });

  it('answers a page naming the refusal for a forged form token, and takes posts from a page of any origin as the JSON route does', async () => {
    const job = await publishedJob('optional');
    const forged = await step(tenant.slug, job, { form_token: 'v1.0.forged' });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('content-security-policy')).toBe(careersCsp());
    expect(forged.text).toContain('<h1>The CV could not be uploaded</h1>');
    expect(forged.text).toContain('role="alert"');
    // The signed form token is the credential, not the Origin: as the withdraw confirmation.
    const elsewhere = await step(
      tenant.slug,
      job,
      { form_token: formToken(job) },
      { Origin: 'https://elsewhere.example', 'Sec-Fetch-Site': 'cross-site' },
    );
    expect(elsewhere.status, elsewhere.text).toBe(201);
  });
});
