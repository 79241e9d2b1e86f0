/**
 * The console's import page in a real browser (Debian's Chromium, playwright-core) against the
 * worker's shared local stack (`npm start`, its import worker included), in a workspace of its
 * own: a small file chosen from the keyboard, its preview, a dry run, the import with its progress, and the
 * download of the rows not imported. axe checks each state; a browser console error fails.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browser-suite';
import { readFileSync } from 'node:fs';

const b = browserSuite('import', { context: { viewport: { width: 1280, height: 900 }, acceptDownloads: true } });
const { check } = b;
let page: Page;

beforeAll(async () => {
  page = b.page;
  await page.goto('/signin?next=/candidates/import');
  await page.getByLabel('Email').fill(b.admin.email);
  await page.getByLabel('Password', { exact: true }).fill(b.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Import candidates' }).waitFor();
}, 60_000);

/** Choose a file from the keyboard: focus the file input by Tab, open its chooser with Space. */
async function chooseFromKeyboard(name: string, text: string) {
  await page.getByRole('heading', { level: 1 }).click();
  const focused = () => page.evaluate('document.activeElement?.id');
  for (let i = 0; i < 40 && (await focused()) !== 'import-file'; i++) await page.keyboard.press('Tab');
  expect(await focused()).toBe('import-file');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
  await chooser.setFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
}

describe('import page', { timeout: 90_000 }, () => {
  it('names an unknown column before anything is sent', async () => {
    await check('import: empty');
    await chooseFromKeyboard('bad.csv', 'name,nickname\nAda,Countess\n');
    await expect.poll(() => page.getByText(/Unknown column “nickname”/).count()).toBe(1);
    await expect(page.getByRole('button', { name: /^Import/ }).count()).resolves.toBe(0);
    await check('import: unknown column');
  });

  it('previews, checks, imports with progress, and offers the rows not imported as CSV', async () => {
    // A blank line keeps its row number (the server's and the page's), and a cell that would start
    // a formula comes back in the download as text.
    const csv = 'name,email\nKey Board,key.board@import.example\n\n,no-name@import.example\n=Accent Zoë,not-an-email\n';
    await chooseFromKeyboard('people.csv', csv);
    const preview = page.getByRole('table');
    await expect.poll(() => preview.getByRole('row').count()).toBe(4);
    expect(await preview.locator('tbody tr td:first-child').allTextContents()).toEqual(['2', '4', '5']);
    await check('import: preview');

    await page.getByRole('button', { name: 'Check the file' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Check result/ }).waitFor();
    expect(await page.getByRole('status').textContent()).toMatch(/1 of 3 rows would be imported; 0 skipped as duplicates, 2 with errors/);
    await check('import: dry run');

    await page.getByRole('button', { name: 'Import 3 rows' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('status').textContent()).toMatch(/1 created, 0 skipped as duplicates, 2 failed/);
    const link = page.getByRole('link', { name: /Download the rows not imported/ });
    await link.waitFor();
    await check('import: finished');

    await link.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const path = await download.path();
    expect(readFileSync(path, 'utf8')).toBe(
      "name,email,error\r\n,no-name@import.example,name is required\r\n'=Accent Zoë,not-an-email,email must be an email address\r\n",
    );
  });
});
