/**
 * The careers site's settings in a real browser (Debian's Chromium against the worker's shared
 * `npm start`, in a workspace of its own), from the keyboard alone: an admin opens the page from
 * the settings navigation, sets the name, logo and privacy notice URLs and saves; an http logo is
 * explained before anything is sent; a field emptied clears its setting. Every state is checked
 * with axe (no serious or critical violation) and no console error.
 */
import { describe, expect, it } from 'vitest';
import { browserSuite } from '../helpers/browser-suite';

const b = browserSuite('careers-settings');

describe('careers settings in the console', { timeout: 60_000 }, () => {
  it('an admin sets the name, logo and privacy notice by keyboard; an http URL is explained; empty clears', async () => {
    await b.signIn();
    await b.page.goto('/settings/security');
    await b.page.getByRole('heading', { level: 1, name: 'Security settings' }).waitFor();
    await b.page.getByRole('link', { name: 'Careers site' }).waitFor();
    await b.check('security settings, with the careers site in the settings menu');
    await b.press(b.page.getByRole('link', { name: 'Careers site' }));
    await b.page.getByRole('heading', { level: 1, name: 'Careers site' }).waitFor();
    const name = b.page.getByLabel('Name');
    await name.waitFor();
    await b.check('careers settings, empty');

    await b.typeInto(name, 'Keyboard Careers');
    await b.page.keyboard.press('Tab');
    await b.page.keyboard.type('http://cdn.example.com/logo.png');
    await b.page.keyboard.press('Tab');
    await b.page.keyboard.type('https://example.com/privacy');
    await b.page.keyboard.press('Enter');
    await b.page.getByRole('alert').getByText('The logo URL must start with https://.').waitFor();
    await b.check('careers settings, an http logo explained');

    await b.typeInto(b.page.getByLabel('Logo URL (https)'), 'https://cdn.example.com/logo.png');
    await b.page.keyboard.press('Enter');
    await b.page.getByText('Careers settings saved.').waitFor();
    await b.check('careers settings, saved');
    const saved = await b.page.request.get('/api/settings/careers');
    expect((await saved.json()).data).toMatchObject({
      careers_name: 'Keyboard Careers',
      careers_logo_url: 'https://cdn.example.com/logo.png',
      careers_privacy_url: 'https://example.com/privacy',
    });

    await b.typeInto(b.page.getByLabel('Name'), '');
    await b.page.keyboard.press('Enter');
    await b.page.getByText('Careers settings saved.').waitFor();
    await expect.poll(async () => (await (await b.page.request.get('/api/settings/careers')).json()).data.careers_name).toBeNull();
  });

  it('axe checked every page state the test reached', () => b.everyStateChecked());
});
