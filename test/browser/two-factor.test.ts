/**
 * Two-factor sign-in in a real browser (Debian's Chromium against the worker's shared `npm start`,
 * in a workspace of its own), from the keyboard alone: the workspace's admin sets it up on the
 * account page (the test reads the key the page shows and computes the app's code with otplib),
 * saves the recovery codes
 * shown once, signs out, and signs in again with the password and then a code; a wrong code is
 * explained. Every state is checked with axe (no serious or critical violation) and no console error.
 */
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, type Login } from '../helpers/browser-suite';

const b = browserSuite('two-factor');
const { check, press, typeInto } = b;
let page: Page;
let admin: Login;
let secret: string;
beforeAll(() => {
  ({ page, admin } = b);
});

const heading = (name: string | RegExp) => page.getByRole('heading', { name });
/** The code an authenticator app shows `offset` periods from now. */
const codeAt = (offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

async function signInWithPassword() {
  await page.goto('/signin');
  await heading('Sign in to your workspace').waitFor();
  await typeInto(page.getByLabel('Email'), admin.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(admin.password);
  await page.keyboard.press('Enter');
}

describe('two-factor sign-in in the console', { timeout: 90_000 }, () => {
  it('the admin sets it up on the account page: QR code and key, a code from the app, recovery codes shown once', async () => {
    await signInWithPassword();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.goto('/account');
    await heading('Two-factor sign-in').waitFor();
    await page.getByText(/^Off\./).waitFor();
    await check('account, two-factor off');

    await press(page.getByRole('button', { name: 'Set up two-factor sign-in' }));
    await page.getByRole('img', { name: /QR code for your authenticator app/ }).waitFor();
    secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The page moved focus to the code field.
    expect(await page.evaluate('document.activeElement.id')).toBe('tf-setup-code');
    await check('two-factor set-up');
    await page.keyboard.type(await codeAt());
    await page.keyboard.press('Enter');

    await heading('Your recovery codes').waitFor();
    const codes = (await page.getByTestId('recovery-codes').getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await check('recovery codes shown once');
    await press(page.getByRole('button', { name: 'I have saved them' }));
    await page.getByText(/^On since/).waitFor();
    await page.getByText('10 of 10 recovery codes left.', { exact: false }).waitFor();
    await check('account, two-factor on');
  });

  it('signing in asks for a code after the password; a wrong one is explained, the right one lets them in', async () => {
    await press(page.getByRole('button', { name: 'Sign out' }));
    await heading('Sign in to your workspace').waitFor();
    await signInWithPassword();
    await heading('Enter your code').waitFor();
    // Nothing else is shown: no navigation until the second step is done.
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await check('two-factor step');

    const right = await codeAt(1); // the set-up spent this period's code
    const field = page.getByLabel('Code from your authenticator app');
    await typeInto(field, right === '000000' ? '111111' : '000000');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/code is incorrect or already used/i);
    await check('two-factor step, wrong code');

    await typeInto(field, right);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const session = await (await page.request.get('/api/session')).json();
    expect(session.data.pending).toBeUndefined();
    expect(session.data.user.two_factor_enabled).toBe(true);
  });

  it('the security settings show the token lifetimes and the two-factor policy; the admin requires it of admins', async () => {
    await page.goto('/settings/security');
    await heading('Security settings').waitFor();
    await expect.poll(() => page.getByLabel('Default lifetime (days)').inputValue()).toBe('90');
    await check('security settings');
    await press(page.getByRole('radio', { name: /Required for admins/ }), 'Space');
    await press(page.getByRole('button', { name: 'Save policy' }));
    await page.getByText('Two-factor policy saved.').waitFor();
    const policy = await (await page.request.get('/api/settings/two-factor')).json();
    expect(policy.data).toEqual({ required_for: 'admins' });
    await check('two-factor policy saved');
  });
});
