/**
 * Erasure and retention in a real browser (Debian's Chromium against the worker's shared `npm start`, in a
 * workspace of its own), from the keyboard: an admin erases a candidate after typing its name (the button
 * stays off until the name matches), and saves a retention rule only after its dry run. Every
 * state is checked with axe (no serious or critical violation) and no console error.
 */
import { describe, expect, it } from 'vitest';
import { browserSuite } from '../helpers/browser-suite';

const b = browserSuite('erase');

describe('erasure in the console', { timeout: 60_000 }, () => {
  it('an admin erases a candidate after typing its name; the page then shows the erased record', async () => {
    await b.signIn();
    const created = await b.page.request.post('/api/candidates', {
      data: { name: 'Ottilie Vanderkamp', email: 'ottilie@example.org', phone: '+31 20 555 0199' },
      headers: { Origin: b.origin },
    });
    expect(created.status()).toBe(201);
    const id = (await created.json()).data.id as string;
    await b.page.goto(`/candidates/${id}`);
    await b.page.getByRole('heading', { level: 1, name: 'Ottilie Vanderkamp' }).waitFor();
    await b.check('candidate with the erase section');

    await b.press(b.page.getByRole('button', { name: 'Erase this candidate…' }));
    const dialog = b.page.getByRole('dialog', { name: "Erase this candidate's personal data?" });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Erase for good' });
    expect(await confirm.isDisabled()).toBe(true);
    await b.typeInto(dialog.getByLabel('Name'), 'Ottilie');
    expect(await confirm.isDisabled()).toBe(true);
    await b.check('erase dialog, name not yet typed');
    await b.typeInto(dialog.getByLabel('Name'), 'Ottilie Vanderkamp');
    expect(await confirm.isDisabled()).toBe(false);
    await b.press(confirm);

    await b.page.getByRole('heading', { level: 1, name: 'Erased candidate' }).waitFor();
    await b.page.getByText(/^Erased\. \d+ stored items? scrubbed\.$/).waitFor();
    await b.page.getByText(/personal data was erased on/).waitFor();
    expect(await b.page.getByRole('button', { name: 'Erase this candidate…' }).count()).toBe(0);
    const got = await (await b.page.request.get(`/api/candidates/${id}`)).json();
    expect(got.data).toMatchObject({ name: '', email: null, phone: null });
    expect(got.data.erased_at).toEqual(expect.any(String));
    await b.check('erased candidate');
  });

  it('a retention rule is saved only after the dry run says how many candidates it would erase', async () => {
    await b.page.goto('/settings/pipeline');
    await b.page.getByRole('heading', { level: 2, name: 'Retention rules' }).waitFor();
    await b.typeInto(b.page.getByLabel('Erase candidates this many days after they were rejected'), '30');
    await b.press(b.page.getByRole('button', { name: 'Check and save…' }));
    await b.page.getByText(/The next run would erase 0 candidates/).waitFor();
    await b.check('retention dry run');
    await b.press(b.page.getByRole('button', { name: 'Save retention rules' }));
    await b.page.getByText('Retention rules saved. They run once a day.').waitFor();
    const settings = await (await b.page.request.get('/api/settings/pipeline')).json();
    expect(settings.data.retention).toEqual({ rejected_days: 30, inactive_days: null });
    await b.check('retention saved');
  });
});
