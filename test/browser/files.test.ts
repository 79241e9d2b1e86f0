/**
 * A person's files in the console, in Debian's Chromium against the worker's shared local stack
 * (its local S3 included), in a workspace of its own: a CV uploaded from the profile by keyboard,
 * straight to the bucket (its CORS rule and the page's CSP allow exactly that), checked in the
 * background while the list updates in place, read beside the profile, downloaded; an image shown
 * as an image; a file whose bytes lie about their type refused; a file deleted. Every state
 * reached is checked with axe, and any CSP violation fails the test as a console error.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browser-suite';
import { CV_LINES, html, pdf, png } from '../helpers/file-fixtures';

const b = browserSuite('files', { context: { viewport: { width: 1280, height: 900 }, acceptDownloads: true } });
const { check, press } = b;
let page: Page;
let errors: string[];
let candidateId: string;
let personId: string;
const CV = pdf();

beforeAll(async () => {
  ({ page, errors } = b);
  page.setDefaultTimeout(20_000);
  await b.signIn();
  const res = await page.request.post('/api/candidates', { data: { name: 'Ada Lovelace', email: 'ada@example.com' } });
  expect(res.status()).toBe(201);
  ({ id: candidateId, person_id: personId } = (await res.json()).data);
});

const files = () => page.getByRole('region', { name: 'Files' });
const item = (name: string) => files().getByRole('listitem').filter({ hasText: name });

/** Choose the kind and the file by keyboard (Space on the file input opens the chooser), then press Upload. */
async function upload(kind: string, name: string, mimeType: string, buffer: Uint8Array) {
  const region = files();
  const select = region.getByLabel('Kind of document');
  await select.focus();
  await select.selectOption({ label: kind });
  const input = region.getByLabel('File', { exact: true });
  await input.focus();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
  await chooser.setFiles({ name, mimeType, buffer: Buffer.from(buffer) });
  await press(region.getByRole('button', { name: 'Upload' }));
}

describe('files on the profile', { timeout: 90_000 }, () => {
  it('starts empty, with what may be uploaded', async () => {
    await page.goto(`/candidates/${candidateId}`);
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    await files().getByText('No files yet.').waitFor();
    await files()
      .getByText(/PDF.*at most 20\.0 MB/)
      .waitFor();
    await check('profile: no files');
  });

  it('uploads a CV by keyboard straight to the bucket; the list turns it from checking to ready without a reload', async () => {
    await upload('CV / resume', 'ada-cv.pdf', 'application/pdf', CV);
    // The check's end is announced from the list as read again: no reload of the page.
    await files().getByRole('status').filter({ hasText: 'ada-cv.pdf is ready.' }).waitFor();
    await item('ada-cv.pdf').getByText('Ready').waitFor();
    await expect.poll(() => item('ada-cv.pdf').textContent()).toContain('CV / resume');
    const listed = (await (await page.request.get(`/api/people/${personId}/files`)).json()).data;
    expect(listed).toMatchObject([
      { filename: 'ada-cv.pdf', kind: 'resume', status: 'ready', content_type: 'application/pdf', size: CV.length },
    ]);
    await check('profile: a file ready');
  });

  it('reads its text beside the profile, focus on the reader', async () => {
    await press(item('ada-cv.pdf').getByRole('button', { name: 'Read ada-cv.pdf' }));
    const reader = files().getByRole('region', { name: 'ada-cv.pdf' });
    const text = reader.getByLabel('Text of ada-cv.pdf');
    await expect.poll(() => text.textContent()).toContain(CV_LINES[2]);
    for (const line of CV_LINES) expect(await text.textContent()).toContain(line);
    expect(await page.evaluate('document.activeElement.textContent')).toBe('ada-cv.pdf');
    await check('profile: the reader');
  });

  it('downloads the original through the short-lived link: the same bytes, saved rather than opened', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      press(item('ada-cv.pdf').getByRole('link', { name: 'Download ada-cv.pdf' })),
    ]);
    expect(download.suggestedFilename()).toBe('ada-cv.pdf');
    expect(new Uint8Array(readFileSync((await download.path())!))).toEqual(CV);
    // Still on the profile: nothing navigated away.
    expect(new URL(page.url()).pathname).toBe(`/candidates/${candidateId}`);
    expect(errors).toEqual([]);
  });

  it('shows an image as an image', async () => {
    await upload('Portfolio', 'portfolio.png', 'image/png', png());
    await item('portfolio.png').getByText('Ready').waitFor();
    await press(item('portfolio.png').getByRole('button', { name: 'Read portfolio.png' }));
    const img = files().getByRole('img', { name: 'portfolio.png, as uploaded' });
    // Loaded from the bucket through the API's redirect: the CSP let it in and it decoded.
    await expect
      .poll(() =>
        img.evaluate((el) => {
          const i = el as unknown as { complete: boolean; naturalWidth: number };
          return i.complete ? i.naturalWidth : 0;
        }),
      )
      .toBeGreaterThan(0);
    await check('profile: an image in the reader');
  });

  it('refuses a file whose bytes are not what its name says, and says why', async () => {
    await upload('CV / resume', 'resume.pdf', 'application/pdf', html());
    await files().getByRole('status').filter({ hasText: 'resume.pdf was refused' }).waitFor();
    await item('resume.pdf').getByText('Refused').waitFor();
    expect(await item('resume.pdf').textContent()).toContain('its content is not an allowed type');
    expect(await item('resume.pdf').getByRole('button', { name: /^Read/ }).count()).toBe(0);
    expect(
      await item('resume.pdf')
        .getByRole('link', { name: /^Download/ })
        .count(),
    ).toBe(0);
    await check('profile: a refused file');
  });

  it('deletes a file after a confirmation', async () => {
    await press(item('resume.pdf').getByRole('button', { name: 'Delete resume.pdf' }));
    const dialog = page.getByRole('dialog', { name: 'Delete this file?' });
    await dialog.waitFor();
    await check('profile: delete a file');
    await press(dialog.getByRole('button', { name: 'Delete the file' }));
    await files().getByRole('status').filter({ hasText: 'resume.pdf deleted.' }).waitFor();
    await expect.poll(() => item('resume.pdf').count()).toBe(0);
    const listed = (await (await page.request.get(`/api/people/${personId}/files`)).json()).data as { filename: string }[];
    expect(listed.map((f) => f.filename).sort()).toEqual(['ada-cv.pdf', 'portfolio.png']);
    expect(errors).toEqual([]);
  });

  it('axe looked at every state the page reached', () => {
    b.everyStateChecked();
  });
});
