/**
 * Notes in a real browser (Debian's Chromium against the worker's shared `npm start`, in a
 * workspace of its own), from the keyboard: an admin writes a note on a candidate's person mentioning a member, who then has it
 * unread in their inbox; the Activity section and the Mentions page. Every state is checked with
 * axe (no serious or critical violation) and no console error.
 */
import { describe, expect, it } from 'vitest';
import { request } from 'playwright-core';
import { browserSuite } from '../helpers/browser-suite';

const b = browserSuite('notes');
const { check, press } = b;

describe('notes in the console', { timeout: 180_000 }, () => {
  it('an admin adds a note mentioning a member; the member has it unread', async () => {
    await b.signIn();
    const { page, origin } = b;
    const headers = { Origin: origin };
    const added = await page.request.post('/api/members', { data: { email: 'mira.mention@example.org', role: 'member' }, headers });
    expect(added.status()).toBe(201);
    const temporary = (await added.json()).data.temporary_password as string;
    const created = await page.request.post('/api/candidates', {
      data: { name: 'Wendeline Notes', email: 'wendeline@example.org' },
      headers,
    });
    expect(created.status()).toBe(201);
    const id = (await created.json()).data.id as string;

    await page.goto(`/candidates/${id}`);
    await page.getByRole('heading', { level: 2, name: 'Notes' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Activity' }).waitFor();
    await check('candidate with notes and activity');

    await page.getByLabel('New note').focus();
    await page.keyboard.type('Great portfolio review.');
    const mention = page.getByRole('checkbox', { name: 'mira.mention@example.org' });
    await mention.focus();
    await mention.press('Space');
    expect(await mention.isChecked()).toBe(true);
    await check('note form with a mention');
    await press(page.getByRole('button', { name: 'Add note' }));
    await page.locator('.note-body', { hasText: 'Great portfolio review.' }).waitFor();
    expect(await page.getByLabel('New note').inputValue()).toBe('');
    await check('note added');

    // The member signs in elsewhere (a temporary password, changed first) and finds it unread.
    const member = await request.newContext({ baseURL: origin, extraHTTPHeaders: { Origin: origin } });
    try {
      expect((await member.post('/api/session', { data: { email: 'mira.mention@example.org', password: temporary } })).status()).toBe(200);
      const changed = await member.put('/api/session/password', {
        data: { current_password: temporary, new_password: 'a long new passphrase for mira' },
      });
      expect(changed.status()).toBe(200);
      const inbox = await (await member.get('/api/mentions')).json();
      expect(inbox.unread).toBe(1);
      expect(inbox.data[0].candidate_id).toBe(id);
      expect(JSON.stringify(inbox)).not.toContain('portfolio');
    } finally {
      await member.dispose();
    }

    await page.goto('/mentions');
    await page.getByRole('heading', { level: 1, name: 'Mentions' }).waitFor();
    await check('mentions page');
  });
});
