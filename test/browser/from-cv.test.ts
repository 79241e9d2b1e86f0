/**
 * "Add candidate from a CV" in a real browser (Debian's Chromium against the worker's shared `npm
 * start`, its local S3 and file worker included, in a workspace of its own), from the keyboard: a
 * CV picked and uploaded with its progress, checked, then the create form with the email and phone
 * found in it offered beside the empty fields (never filled in unless chosen); the new candidate
 * has the CV attached as their resume and the suggestions are gone. A CV whose bytes lie about
 * their type is refused, and the form says so. axe on every state, no console error.
 */
import { describe, expect, it } from 'vitest';
import { CV_LINES, html, pdf } from '../helpers/file-fixtures';
import { browserSuite } from '../helpers/browser-suite';

const b = browserSuite('from-cv');
const { check, press } = b;

const PHONE = '+44 20 7946 0958';

/** Open the first step from the candidates page, choose `name` by keyboard (Space opens the chooser), upload it. */
async function uploadCv(name: string, bytes: Uint8Array) {
  const { page } = b;
  await press(page.getByRole('button', { name: 'Add candidate from a CV' }));
  const dialog = page.getByRole('dialog', { name: 'Add a candidate from a CV' });
  await dialog.waitFor();
  // What may be uploaded is read first: the input is ready once its hint says so.
  await dialog.getByText(/PDF.*at most 20\.0 MB/).waitFor();
  const input = dialog.getByLabel('CV', { exact: true });
  await input.focus();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
  await chooser.setFiles({ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) });
  return dialog;
}

describe('add a candidate from a CV', { timeout: 180_000 }, () => {
  it('uploads a CV, then offers what it holds beside the empty fields, and fills in only what is chosen', async () => {
    await b.signIn();
    const { page } = b;
    const email = b.email('ada.cv');
    const cv = pdf([CV_LINES.map((l) => (l.startsWith('Email:') ? `Email: ${email}` : l))]);
    await page.goto('/candidates');
    await page.getByRole('heading', { level: 1, name: 'Candidates' }).waitFor();
    await check('candidates, with Add candidate from a CV');

    const picker = await uploadCv('ada-cv.pdf', cv);
    await check('from a CV: the CV chosen');
    await press(picker.getByRole('button', { name: 'Upload the CV' }));

    // Uploaded, then checked by the file worker (the first run in this runtime loads the parsers):
    // the form opens when the check ends, or the picker says what went wrong.
    const form = page.getByRole('dialog', { name: 'Add a candidate from ada-cv.pdf' });
    await form.or(picker.getByRole('alert')).waitFor({ timeout: 90_000 });
    expect(await picker.getByRole('alert').count()).toBe(0);
    const useEmail = form.getByRole('button', { name: `Use ${email} as the email` });
    const usePhone = form.getByRole('button', { name: `Use ${PHONE} as the phone` });
    await useEmail.waitFor();
    await usePhone.waitFor();
    // Offered, not applied: every field is empty until the recruiter chooses.
    expect(await form.getByRole('textbox', { name: /^Email/ }).inputValue()).toBe('');
    expect(await form.getByRole('textbox', { name: /^Phone/ }).inputValue()).toBe('');
    expect(await page.evaluate('document.activeElement.id')).toBe('new-name');
    await check('from a CV: the form with suggestions');

    await page.keyboard.type('Ada Lovelace');
    await press(useEmail);
    expect(await form.getByRole('textbox', { name: /^Email/ }).inputValue()).toBe(email);
    // The button goes with the empty field; focus lands on the field it filled.
    expect(await useEmail.count()).toBe(0);
    expect(await page.evaluate('document.activeElement.id')).toBe('new-email');
    expect(await form.getByRole('textbox', { name: /^Phone/ }).inputValue()).toBe('');
    await check('from a CV: the email used');

    await press(form.getByRole('button', { name: 'Add candidate' }));
    await page.getByRole('status').filter({ hasText: 'Ada Lovelace was added.' }).waitFor();
    await check('from a CV: added');

    const href = await page.getByRole('link', { name: 'Open their profile' }).getAttribute('href');
    const candidate = (await (await page.request.get(`/api${href}`)).json()).data as {
      person_id: string;
      email: string;
      phone?: string | null;
    };
    expect(candidate.email).toBe(email);
    // The phone was offered and not chosen: it was not sent.
    expect(candidate.phone ?? null).toBeNull();
    const files = (await (await page.request.get(`/api/people/${candidate.person_id}/files`)).json()).data;
    expect(files).toMatchObject([{ filename: 'ada-cv.pdf', kind: 'resume', size: cv.length }]);
  });

  it('refuses a CV whose bytes are not what its name says, and says why', async () => {
    const { page } = b;
    const picker = await uploadCv('resume.pdf', html());
    await press(picker.getByRole('button', { name: 'Upload the CV' }));
    await picker.getByRole('alert').filter({ hasText: 'resume.pdf was refused' }).waitFor({ timeout: 60_000 });
    expect(await page.getByRole('dialog', { name: /Add a candidate from resume\.pdf/ }).count()).toBe(0);
    await check('from a CV: refused');
    await press(picker.getByRole('button', { name: 'Cancel' }));
    await picker.waitFor({ state: 'hidden' });
  });

  it('axe looked at every state the page reached', () => {
    b.everyStateChecked();
  });
});
