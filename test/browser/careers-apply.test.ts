/**
 * Applying from the careers page in a real browser (Debian's Chromium against the worker's shared
 * `npm start`, its local S3 and workers included), from the keyboard, with a CV: the job page's CV
 * step, the upload page whose form posts the file straight to storage, the way back to the job page
 * with the CV named, the application form, the thank-you page; axe on each state. Then the same
 * job page with JavaScript off: its content reads and its forms work, the CV included. The new
 * candidate's person holds the CV as their resume, its text read.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FORM_MIN_MS } from '../../lib/domain/form-token';
import { CV_LINES, pdf } from '../helpers/file-fixtures';
import { browserSuite } from '../helpers/browser-suite';
import { until } from '../helpers/until';

const b = browserSuite('careers-apply');
const { check, press } = b;

/** A published job that requires a CV, through the console's API as the workspace's admin. */
async function publishedJob(): Promise<string> {
  const { page } = b;
  const headers = { Origin: b.origin };
  const req = await page.request.post('/api/requisitions', { data: { title: 'Careers Keyboard Engineer' }, headers });
  expect(req.status()).toBe(201);
  const id = ((await req.json()) as { data: { id: string } }).data.id;
  const put = await page.request.put(`/api/requisitions/${id}/posting`, {
    headers,
    data: {
      published: true,
      description: '## About\n\nYou keep our careers page fast.',
      cv: 'required',
      questions: [{ id: 'eu_work', type: 'yes_no', label: 'Are you authorised to work in the EU?', required: true }],
    },
  });
  expect(put.status()).toBe(200);
  return id;
}

/** The form token's issue time, from the page's hidden field: a post must wait FORM_MIN_MS after it. */
async function tokenOldEnough(page: Page) {
  const token = await page.locator('input[name="form_token"]').first().getAttribute('value');
  const issued = Number.parseInt(token!.split('.')[1]!, 36);
  await until('the form older than its minimum time', () => Date.now() >= issued + FORM_MIN_MS);
}

/**
 * From the job page's CV step to the job page again, the CV uploaded. `keyboard`: the file chosen
 * through the chooser the keyboard opens, and axe on the upload page (it needs script, so not
 * with JavaScript off, where the file is set on the input).
 */
async function uploadCv(page: Page, name: string, keyboard: boolean) {
  await press(page.getByRole('button', { name: 'Upload your CV' }));
  await page.getByRole('heading', { level: 1, name: 'Upload your CV' }).waitFor();
  if (keyboard) await check('careers: the CV upload page', page);
  const input = page.getByLabel(/Your CV: a PDF or Word/);
  const file = { name, mimeType: 'application/pdf', buffer: Buffer.from(pdf([[...CV_LINES, name]])) };
  if (keyboard) {
    await input.focus();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles(file);
  } else await input.setInputFiles(file);
  await press(page.getByRole('button', { name: 'Upload', exact: true }));
  // Storage answered 303 to the job page, which names the upload.
  await page.getByText('Your CV is uploaded.').waitFor();
}

/** The application's fields by keyboard, then send it; the thank-you page answers. */
async function fillAndSend(page: Page, name: string, email: string) {
  await page.getByLabel('Full name').focus();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await page.getByRole('radio', { name: 'Yes' }).focus();
  await page.keyboard.press('Space');
  await page.getByRole('checkbox', { name: /I agree/ }).focus();
  await page.keyboard.press('Space');
  await tokenOldEnough(page);
  await press(page.getByRole('button', { name: 'Send application' }));
  await page.getByRole('heading', { level: 1, name: 'Application sent' }).waitFor();
}

/** The CV attached to the applicant's person and read by the file worker. */
async function cvAttached(email: string) {
  const { page } = b;
  const person = await until('the application made a candidate', async () => {
    const res = await page.request.get(`/api/candidates?q=${encodeURIComponent(email)}`);
    return ((await res.json()) as { data: { person_id: string }[] }).data[0]?.person_id;
  });
  // The first file of this runtime loads the parsers.
  const file = await until(
    'the CV read',
    async () => {
      const res = await page.request.get(`/api/people/${person}/files`);
      const f = ((await res.json()) as { data: { status: string; kind: string; has_text: boolean }[] }).data[0];
      return f?.status !== 'processing' && f;
    },
    90_000,
  );
  expect(file).toMatchObject({ status: 'ready', kind: 'resume', has_text: true });
}

describe('applying from the careers page', { timeout: 240_000 }, () => {
  it('by keyboard, with a CV: each state passes axe, and the candidate has the CV', async () => {
    await b.signIn();
    const job = await publishedJob();
    const { page } = b;
    await page.goto(`/careers/${b.workspace.slug}/jobs/${job}`);
    await page.getByRole('heading', { level: 1, name: 'Careers Keyboard Engineer' }).waitFor();
    // A required CV comes first: no application form until it is in.
    expect(await page.getByRole('button', { name: 'Send application' }).count()).toBe(0);
    await check('careers: the job page, CV step');
    await uploadCv(page, 'keyboard-cv.pdf', true);
    await check('careers: the job page with the CV uploaded');
    const email = b.email('careers.keyboard');
    await fillAndSend(page, 'Kay Board', email);
    await check('careers: application sent');
    await cvAttached(email);
  });

  it('with JavaScript off: the job page reads, and its forms upload the CV and apply', async () => {
    await b.signIn();
    const job = await publishedJob();
    // A context of its own, untracked: page-state tracking and axe run scripts, which are off here.
    const context = await b.browser.newContext({ baseURL: b.origin, javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`/careers/${b.workspace.slug}/jobs/${job}`);
      await page.getByRole('heading', { level: 1, name: 'Careers Keyboard Engineer' }).waitFor();
      await page.getByText('You keep our careers page fast.').waitFor();
      // The structured data is in the page as served.
      expect(await page.locator('script[type="application/ld+json"]').count()).toBe(1);
      await uploadCv(page, 'no-script-cv.pdf', false);
      const email = b.email('careers.noscript');
      await fillAndSend(page, 'Nora Script', email);
      // The thank-you page is the careers route's, under /careers/ and so under the careers CSP when deployed.
      expect(new URL(page.url()).pathname).toBe(`/careers/${b.workspace.slug}/jobs/${job}/apply`);
      await cvAttached(email);
    } finally {
      await context.close();
    }
  });

  it("robots.txt reads from a job page's own context, as Lighthouse's robots-txt audit reads it", async () => {
    await b.signIn();
    const job = await publishedJob();
    // Untracked and without script: the read below is the browser's own, under the page's CSP.
    const context = await b.browser.newContext({ baseURL: b.origin, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`/careers/${b.workspace.slug}/jobs/${job}`);
      const cdp = await context.newCDPSession(page);
      const { frameTree } = await cdp.send('Page.getFrameTree');
      const { resource } = await cdp.send('Network.loadNetworkResource', {
        frameId: frameTree.frame.id,
        url: `${b.origin}/robots.txt`,
        options: { disableCache: true, includeCredentials: true },
      });
      expect(resource).toMatchObject({ success: true, httpStatusCode: 200 });
      let text = '';
      for (let eof = false; !eof; ) {
        const chunk = await cdp.send('IO.read', { handle: resource.stream! });
        text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
        eof = chunk.eof;
      }
      // The console's robots file: the careers pages open to crawlers, the rest closed.
      expect(text.split('\n')).toEqual(expect.arrayContaining(['User-agent: *', 'Allow: /careers/', 'Disallow: /']));
    } finally {
      await context.close();
    }
  });

  it('reached no state without axe', () => {
    b.everyStateChecked();
  });
});
