/**
 * Erasure and retention in a real browser (Debian's Chromium against `npm start` on a temp
 * DATA_DIR), from the keyboard: an admin erases a candidate after typing its name (the button
 * stays off until the name matches), and saves a retention rule only after its dry run. Every
 * state is checked with axe (no serious or critical violation) and no console error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { axe, chromiumWithStack, collectConsoleErrors, seriousOf } from '../helpers/browser';
import { e2eSandbox } from '../helpers/processes';

const { freshDir, startLocal, cleanup } = e2eSandbox();
let browser: Browser | undefined;
let page: Page;
let errors: string[];
let origin: string;
let admin: { email: string; password: string };

beforeAll(async () => {
  let launched: Browser;
  ({
    browser: launched,
    origin,
    admin,
  } = await chromiumWithStack(
    () => startLocal(freshDir('erase'), 90_000),
    (b) => (browser = b),
  ));
  const context = await launched.newContext({ baseURL: origin, viewport: { width: 1024, height: 800 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  errors = collectConsoleErrors(page);
}, 150_000);

afterAll(async () => {
  await browser?.close();
  await cleanup();
});

async function check(label: string) {
  expect(seriousOf(await axe(page, label)), `axe on ${label}`).toEqual([]);
  expect(errors, `browser console on ${label}`).toEqual([]);
}
async function press(target: Locator, key = 'Enter') {
  await target.focus();
  await target.press(key);
}
async function typeInto(field: Locator, text: string) {
  await field.focus();
  await field.press('ControlOrMeta+a');
  await field.press('Delete');
  await page.keyboard.type(text);
}

describe('erasure in the console', { timeout: 60_000 }, () => {
  it('an admin erases a candidate after typing its name; the page then shows the erased record', async () => {
    expect((await page.request.post('/api/session', { data: admin })).status()).toBe(200);
    const created = await page.request.post('/api/candidates', {
      data: { name: 'Ottilie Vanderkamp', email: 'ottilie@example.org', phone: '+31 20 555 0199' },
      headers: { Origin: origin },
    });
    expect(created.status()).toBe(201);
    const id = (await created.json()).data.id as string;
    await page.goto(`/candidates/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Ottilie Vanderkamp' }).waitFor();
    await check('candidate with the erase section');

    await press(page.getByRole('button', { name: 'Erase this candidate…' }));
    const dialog = page.getByRole('dialog', { name: "Erase this candidate's personal data?" });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Erase for good' });
    expect(await confirm.isDisabled()).toBe(true);
    await typeInto(dialog.getByLabel('Name'), 'Ottilie');
    expect(await confirm.isDisabled()).toBe(true);
    await check('erase dialog, name not yet typed');
    await typeInto(dialog.getByLabel('Name'), 'Ottilie Vanderkamp');
    expect(await confirm.isDisabled()).toBe(false);
    await press(confirm);

    await page.getByRole('heading', { level: 1, name: 'Erased candidate' }).waitFor();
    await page.getByText(/^Erased\. \d+ stored items? scrubbed\.$/).waitFor();
    await page.getByText(/personal data was erased on/).waitFor();
    expect(await page.getByRole('button', { name: 'Erase this candidate…' }).count()).toBe(0);
    const got = await (await page.request.get(`/api/candidates/${id}`)).json();
    expect(got.data).toMatchObject({ name: '', email: null, phone: null });
    expect(got.data.erased_at).toEqual(expect.any(String));
    await check('erased candidate');
  });

  it('a retention rule is saved only after the dry run says how many candidates it would erase', async () => {
    await page.goto('/settings/pipeline');
    await page.getByRole('heading', { level: 2, name: 'Retention rules' }).waitFor();
    await typeInto(page.getByLabel('Erase candidates this many days after they were rejected'), '30');
    await press(page.getByRole('button', { name: 'Check and save…' }));
    await page.getByText(/The next run would erase 0 candidates/).waitFor();
    await check('retention dry run');
    await press(page.getByRole('button', { name: 'Save retention rules' }));
    await page.getByText('Retention rules saved. They run once a day.').waitFor();
    const settings = await (await page.request.get('/api/settings/pipeline')).json();
    expect(settings.data.retention).toEqual({ rejected_days: 30, inactive_days: null });
    await check('retention saved');
  });
});
