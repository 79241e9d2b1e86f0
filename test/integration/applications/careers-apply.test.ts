/**
 * The careers job page's application form without JavaScript: it posts to
 * POST /careers/{slug}/jobs/{id}/apply, which takes the application as the public JSON route does
 * (the same checks, bot defences and queue) and answers every post with a page under the careers
 * CSP: the thank-you page, a page naming the field at fault, the careers not-found page.
 */
import { createHash } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAREERS_CSP } from '../../../lib/careers/page';
import { FORM_MIN_MS, issueFormToken } from '../../../lib/domain/form-token';
import { newId } from '../../../lib/ids';
import { getCandidate } from '../../../lib/store/candidates';
import { startStack, type Stack, type TestTenant } from '../../helpers/stack';
import { candidatesOfEmail } from './queue';

let stack: Stack;
let tenant: TestTenant;
let token: string;
let sqs: SQSClient;

beforeAll(async () => {
  stack = await startStack({ imports: true });
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  sqs = new SQSClient({ endpoint: process.env.SQS_ENDPOINT, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
});
afterAll(async () => {
  sqs?.destroy();
  await stack?.close();
});

async function publishedJob(): Promise<string> {
  const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Platform Engineer' } });
  const id = req.body.data.id as string;
  const put = await stack.call('PUT', `/api/v1/requisitions/${id}/posting`, {
    token,
    body: {
      published: true,
      description: 'We build pipelines.',
      questions: [{ id: 'eu_work', type: 'yes_no', label: 'Are you authorised to work in the EU?', required: true }],
    },
  });
  expect(put.status, put.text).toBe(200);
  return id;
}

/** A form token as the job page hands out, read long enough ago for a person to have filled the form. */
const formToken = (jobId: string) => issueFormToken(process.env.FORM_TOKEN_SECRET!, tenant.slug, jobId, Date.now() - FORM_MIN_MS);

/** The job page form's fields, as a browser posts them. */
const fields = (jobId: string, over: Record<string, string> = {}) => ({
  name: 'Ada Lovelace',
  email: `ada-${newId().slice(-12)}@example.com`,
  'answers.eu_work:bool': 'true',
  'consent.accepted': 'true',
  'consent.text': 'I have read the privacy notice.',
  'consent.version': 'careers-1',
  website: '',
  form_token: formToken(jobId),
  ...over,
});

/** The form post: urlencoded, and `Origin: null` as a page served with no-referrer posts it; no Accept asked. */
const post = (slug: string, jobId: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}/careers/${slug}/jobs/${jobId}/apply`, {
    method: 'POST',
    body: new URLSearchParams(form).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'null', ...headers },
  }).then(async (res) => ({ status: res.status, headers: res.headers, text: await res.text() }));

const candidatesOf = (email: string) => candidatesOfEmail(sqs, tenant.id, email);

const expectCareersPage = (res: { headers: Headers; text: string }) => {
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('content-security-policy')).toBe(CAREERS_CSP);
  // The page's one style block is the one the CSP's hash allows; no script of any kind.
  const style = /<style>([^<]*)<\/style>/.exec(res.text)![1]!;
  expect(CAREERS_CSP).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  expect(res.text).not.toMatch(/<script|\son\w+=/i);
};

describe("the careers page's application form: POST /careers/{slug}/jobs/{id}/apply", () => {
  it("is where the job page's form posts; a person's post answers the thank-you page under the careers CSP and becomes a candidate", async () => {
    const job = await publishedJob();
    const jobPage = await stack.call('GET', `/careers/${tenant.slug}/jobs/${job}`);
    expect(jobPage.text).toContain(`<form method="post" action="/careers/${tenant.slug}/jobs/${job}/apply"`);
    expect(jobPage.text).not.toContain('/applications"');
    const form = fields(job, { source: 'meetup' });
    const res = await post(tenant.slug, job, form);
    expect(res.status, res.text).toBe(202);
    expectCareersPage(res);
    expect(res.text).toContain('<h1>Application sent</h1>');
    expect(res.text).not.toContain(form.email);
    const [candidate, ...more] = await candidatesOf(form.email);
    expect(more).toEqual([]);
    const item = (await getCandidate(tenant.id, candidate!.id))!;
    expect(item).toMatchObject({ name: 'Ada Lovelace', email: form.email, stage: 'applied', req_id: job, source: 'meetup' });
    expect(JSON.parse(item.application as string)).toMatchObject({ answers: { eu_work: true } });
    expect(stack.logs.join('\n')).not.toContain(form.email);
  });

  it('answers a filled honeypot with the same thank-you page, and queues no candidate', async () => {
    const job = await publishedJob();
    const bot = fields(job, { website: 'https://spam.example' });
    const res = await post(tenant.slug, job, bot);
    expect(res.status, res.text).toBe(202);
    expectCareersPage(res);
    expect(res.text).toContain('<h1>Application sent</h1>');
    const person = fields(job);
    expect((await post(tenant.slug, job, person)).status).toBe(202);
    expect(await candidatesOf(person.email)).toHaveLength(1);
    expect(await candidatesOf(bot.email)).toHaveLength(0);
  });

  it('answers a post sooner than a person fills the form (its token too recent) with the same thank-you page, and queues nothing', async () => {
    const job = await publishedJob();
    const hasty = fields(job, { form_token: issueFormToken(process.env.FORM_TOKEN_SECRET!, tenant.slug, job, Date.now()) });
    const res = await post(tenant.slug, job, hasty);
    expect(res.status, res.text).toBe(202);
    expectCareersPage(res);
    expect(res.text).toContain('<h1>Application sent</h1>');
    expect(await candidatesOf(hasty.email)).toHaveLength(0);
  });

  it('answers the not-found page for another workspace, an unpublished posting, a requisition on hold and a malformed id', async () => {
    const job = await publishedJob();
    const other = await stack.tenant();
    const emails: string[] = [];
    const notFound = async (slug: string, id: string, what: string) => {
      const form = fields(job);
      emails.push(form.email);
      const page = await post(slug, id, form);
      expect(page.status, what).toBe(404);
      expectCareersPage(page);
      expect(page.text, what).not.toContain('Platform Engineer');
      expect(page.text, what).not.toContain('Application sent');
    };
    await notFound(other.slug, job, "another workspace's slug");
    await notFound('no-such-board', job, 'a slug of no workspace');
    await notFound(tenant.slug, 'x'.repeat(65), 'a malformed id');
    const held = await publishedJob();
    const hold = await stack.call('POST', `/api/v1/requisitions/${held}/status`, { token, body: { status: 'on_hold', reason: 'budget' } });
    expect(hold.status, hold.text).toBe(200);
    await notFound(tenant.slug, held, 'a requisition on hold');
    const hidden = await stack.call('PUT', `/api/v1/requisitions/${job}/posting`, { token, body: { published: false, description: 'x' } });
    expect(hidden.status).toBe(200);
    await notFound(tenant.slug, job, 'an unpublished posting');
    for (const email of emails) expect(await candidatesOf(email), email).toHaveLength(0);
  });

  it('answers a page naming the field at fault, and takes posts from a page of any origin as the JSON route does', async () => {
    const job = await publishedJob();
    const { 'answers.eu_work:bool': _, ...unanswered } = fields(job);
    const bad = await post(tenant.slug, job, unanswered);
    expect(bad.status).toBe(400);
    expectCareersPage(bad);
    expect(bad.text).toContain('<h1>Please check your application</h1>');
    expect(bad.text).toContain('<code>answers.eu_work</code>');
    // The signed form token is the credential, not the Origin: as the CV step and the withdraw confirmation.
    const elsewhere = await post(tenant.slug, job, fields(job), { Origin: 'https://elsewhere.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(elsewhere.status, elsewhere.text).toBe(202);
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });
});
