/**
 * The workspace console in a real browser: Debian's Chromium (playwright-core) against the
 * worker's shared local stack (`npm start`: DynamoDB Local, the real handlers, the webhook
 * pipeline), in a workspace of its own. One browser for the file; the tests run in order, as one
 * admin's session would. Every page state the tests reach (each route, each dialog opened) is checked
 * with axe (no serious or critical violations; the last test proves none was missed) and any
 * browser console error fails the test it happened in.
 */
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_DIST, CONSOLE_ROOT } from '../../console/build';
import { CONSOLE_JS_BUDGET_BYTES, firstLoadJs } from '../../scripts/bench/console-weight';
import { browserSuite, type Login } from '../helpers/browser-suite';
import { sleep } from '../helpers/processes';
import { tlsServers } from '../helpers/tls-servers';

// A revoked token must stop working within the authorizer cache period: the shared runtimes run
// with a 1 s cache (test/helpers/browser-runtime.ts), which keeps the test short.
const b = browserSuite('console', { context: { viewport: { width: 1280, height: 900 } } });
const { check } = b;
const tls = tlsServers(inject('tls'));
let context: BrowserContext;
let page: Page;
let errors: string[];
/** The runtime as the tests use it: its API base URL, its banner, and the workspace's token. */
let stack: { baseUrl: string; demoToken: string; stdout: () => string };
let admin: Login;

beforeAll(() => {
  ({ context, page, errors, admin } = b);
  stack = { baseUrl: b.runtime.baseUrl, demoToken: b.workspace.token, stdout: () => b.runtime.banner };
});

afterAll(async () => {
  await tls.closeAll();
});

const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const SETTINGS = ['API tokens', 'Webhooks', 'Members', 'Pipeline', 'Audit log', 'API docs'];
/**
 * A link of the navigation: the main one, or for a settings page the Settings menu (opened first
 * with Settings in the main navigation when the page shown is not a settings page).
 */
async function nav(name: string, on: Page = page) {
  const main = on.getByRole('navigation', { name: 'Main' });
  if (!SETTINGS.includes(name)) return main.getByRole('link', { name, exact: true });
  const menu = on.getByRole('navigation', { name: 'Settings' });
  if ((await menu.count()) === 0) {
    await main.getByRole('link', { name: 'Settings', exact: true }).click();
    await menu.waitFor();
  }
  return menu.getByRole('link', { name, exact: true });
}

async function signIn(email: string, password: string, on: Page = page) {
  await on.getByLabel('Email').fill(email);
  await on.getByLabel('Password', { exact: true }).fill(password);
  await on.getByRole('button', { name: 'Sign in' }).click();
}

// Generous limits: the steps are quick, but a loaded two-core CI machine can slow a whole page flow down.
describe('workspace console', { timeout: 90_000 }, () => {
  it('was built by npm start, with first-load JavaScript within the 150 KB gzip budget', () => {
    expect(stack.stdout()).toMatch(/^\s*Console\s+http:\/\/127\.0\.0\.1:\d+\/\s*$/m);
    const w = firstLoadJs(CONSOLE_DIST);
    expect(w).toMatchObject({ measured: true });
    if (!w.measured) return;
    expect(w.gzip).toBeLessThanOrEqual(CONSOLE_JS_BUDGET_BYTES);
    // A production build, even though vitest runs with NODE_ENV=test: the development JSX
    // transform would embed source file paths (and half again the bytes).
    for (const f of w.files) expect(readFileSync(join(CONSOLE_DIST, f.path), 'utf8')).not.toContain(CONSOLE_ROOT);
  });

  it('signs in: a wrong password is explained, then the admin lands on the page they asked for', async () => {
    await page.goto('/settings/tokens');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/signin');
    await heading('Sign in to your workspace').waitFor();
    await check('sign-in');

    await signIn(admin.email, 'not-the-password');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/email or password is incorrect/i);

    // The right password, from the keyboard alone: Tab between fields, Enter submits, focus is visible.
    await page.getByLabel('Email').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('password');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).not.toBe('none');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(admin.password);
    await page.keyboard.press('Enter');
    await heading('API tokens').waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings/tokens');
  });

  it('shows the overview: stage chart, total active, stuck candidates longest first, open requisitions', async () => {
    await (await nav('Overview')).click();
    await heading('Overview').waitFor();
    const chart = page.getByRole('figure', { name: 'Candidates per stage' });
    await chart.waitFor();
    await expect.poll(() => chart.textContent()).toMatch(/Applied\s*\d+/);
    const stuck = page.getByRole('table', { name: /Stuck candidates/ });
    const days = (await stuck.locator('tbody tr td:nth-child(3)').allTextContents()).map(Number);
    expect(days.length).toBeGreaterThan(0);
    expect(days).toEqual([...days].sort((a, b) => b - a));
    await page
      .getByRole('table', { name: /Open requisitions/ })
      .getByRole('cell', { name: 'Senior Backend Engineer' })
      .waitFor();
    await check('overview');
  });

  it('creates a token, which works against /api/v1 with plain fetch, then revokes it', async () => {
    await (await nav('API tokens')).click();
    await heading('API tokens').waitFor();
    await check('tokens');
    await page.getByLabel('Name').fill('Browser test sync');
    await page.getByRole('checkbox', { name: /candidates:read/ }).check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const field = page.getByRole('textbox', { name: /New token “Browser test sync”/ });
    await field.waitFor();
    const token = await field.inputValue();
    expect(token).toMatch(/^tps_/);
    await expect.poll(() => page.getByText('will not be shown again').count()).toBe(1);
    await check('tokens: token shown once');

    const call = () => fetch(`${stack.baseUrl}/candidates?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    expect((await call()).status).toBe(200);

    await page.getByRole('button', { name: 'I have copied it' }).click();
    // Who made each token: the admin's own, and the seeded token, which has no recorded creator.
    const mine = page.getByRole('row').filter({ hasText: 'Browser test sync' });
    await expect.poll(() => mine.textContent()).toContain(admin.email);
    const seeded = page.getByRole('row').filter({ hasText: b.workspace.tokenName });
    await expect.poll(() => seeded.textContent()).toContain('unknown (workspace token)');
    expect(await page.getByRole('columnheader', { name: 'Created by' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Revoke Browser test sync' }).click();
    const dialog = page.getByRole('dialog', { name: /Revoke the token “Browser test sync”/ });
    await expect.poll(() => dialog.textContent()).toMatch(/within 60 seconds/);
    await check('tokens: revoke dialog');
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('Token “Browser test sync” revoked').waitFor();
    await expect.poll(() => page.getByRole('cell', { name: 'Browser test sync' }).count()).toBe(0);
    // Refused once the (shortened) authorizer cache lets go of it.
    const deadline = Date.now() + 10_000;
    let status = 200;
    while (Date.now() < deadline && (status = (await call()).status) === 200) await sleep(250);
    expect(status).toBe(401);
    expect(errors).toEqual([]);
  });

  it('labels workspace tokens, warns of an expiry within 14 days, and rotates a token showing the new secret once', async () => {
    await heading('API tokens').waitFor();
    await page.getByLabel('Name').fill('Browser test integration');
    await page.getByRole('checkbox', { name: /candidates:read/ }).check();
    await page.getByRole('radio', { name: /Workspace/ }).check();
    await page.getByLabel('Expires in').selectOption('7');
    await page.getByRole('button', { name: 'Create token' }).click();
    const field = page.getByRole('textbox', { name: /New token “Browser test integration”/ });
    await field.waitFor();
    const old = await field.inputValue();
    await page.getByRole('button', { name: 'I have copied it' }).click();

    const row = page.getByRole('row').filter({ hasText: 'Browser test integration' });
    await expect.poll(() => row.textContent()).toContain('Workspace token');
    await expect.poll(() => row.textContent()).toMatch(/expires in 7 days/);
    // The seeded token has the default lifetime: no warning.
    await expect.poll(() => page.getByRole('row').filter({ hasText: b.workspace.tokenName }).textContent()).not.toMatch(/expires in/);
    await check('tokens: workspace token and expiry warning');

    await page.getByRole('button', { name: 'Rotate Browser test integration' }).click();
    const dialog = page.getByRole('dialog', { name: /Rotate the token “Browser test integration”/ });
    await dialog.getByLabel('The old secret').selectOption('3600');
    await check('tokens: rotate dialog');
    await dialog.getByRole('button', { name: 'Rotate token' }).click();
    const secret = page.getByRole('textbox', { name: /New secret for “Browser test integration”/ });
    await secret.waitFor();
    const fresh = await secret.inputValue();
    expect(fresh).toMatch(/^tps_/);
    expect(fresh).not.toBe(old);
    await expect.poll(() => page.getByText('The old secret keeps working until').count()).toBe(1);
    await check('tokens: rotated secret shown once');
    const call = (token: string) => fetch(`${stack.baseUrl}/candidates?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    // Both work during the grace.
    expect((await call(fresh)).status).toBe(200);
    expect((await call(old)).status).toBe(200);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: /New secret for/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('creates a webhook to a local HTTPS receiver, sends a test and finds it in the delivery log', async () => {
    const receiver = await tls.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('received by the browser-test receiver');
    });
    const url = `https://127.0.0.1:${receiver.port}/hooks`;
    await (await nav('Webhooks')).click();
    await heading('Webhooks').waitFor();
    await page.getByText('No endpoints yet').waitFor();
    await check('webhooks (empty)');

    // Checked as you type: http:// is refused before anything is sent.
    const field = page.getByLabel('Endpoint URL');
    await field.fill('http://127.0.0.1/hooks');
    await page.getByText('The URL must start with https://').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill(url);
    await page.getByText('Looks good').waitFor();
    await page.getByRole('checkbox', { name: /candidate\.created/ }).check();
    await page.getByLabel('Description (optional)').fill('browser test receiver');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = page.getByRole('textbox', { name: 'Signing secret of the new endpoint' });
    expect(await secret.inputValue()).not.toBe('');
    await check('webhooks: secret shown once');
    await page.getByRole('button', { name: 'I have copied it' }).click();

    await page.getByRole('link', { name: url }).click();
    await heading('Webhook endpoint').waitFor();
    await page.getByText('No deliveries yet').waitFor();
    await page.getByRole('button', { name: 'Send test' }).click();
    const result = page.getByTestId('test-result');
    await expect.poll(() => result.textContent(), { timeout: 20_000 }).toMatch(/Delivered\. Status 200, \d+ ms\./);
    expect(receiver.requests.at(-1)?.headers['webhook-signature']).toMatch(/^v1,/);

    const log = page.getByRole('table', { name: /Delivery attempts/ });
    const row = log.getByRole('row').filter({ hasText: 'webhook.test' }).first();
    await expect.poll(() => row.textContent()).toMatch(/Succeeded.*200/);
    await row.getByText('Response body').click();
    await row.getByText('received by the browser-test receiver').waitFor();
    await check('webhook detail');

    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Endpoint disabled').waitFor();
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByText('Endpoint enabled').waitFor();
    expect(errors).toEqual([]);
  });

  it('shows why a failing receiver failed (an untrusted certificate), on the page and in the log, then deletes it', async () => {
    // A cert the stack does not trust: the TLS handshake fails, and the reason must reach the page.
    const untrusted = await generate([{ name: 'commonName', value: 'untrusted.example' }], { keyType: 'ec', algorithm: 'sha256' });
    const bad = await tls.start(() => undefined, { cert: untrusted.cert, key: untrusted.private });
    const url = `https://127.0.0.1:${bad.port}/hooks`;
    await (await nav('Webhooks')).click();
    await heading('Webhooks').waitFor();
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('link', { name: url }).click();
    await heading('Webhook endpoint').waitFor();
    await page.getByRole('button', { name: 'Send test' }).click();
    const result = page.getByTestId('test-result');
    await expect.poll(() => result.textContent(), { timeout: 20_000 }).toMatch(/Failed\./);
    expect(await result.textContent()).toMatch(/Reason: .*(tls|certificate)/i);
    const row = page
      .getByRole('table', { name: /Delivery attempts/ })
      .getByRole('row')
      .filter({ hasText: 'webhook.test' })
      .first();
    await expect.poll(() => row.textContent()).toMatch(/Failed.*\(tls\)/);
    await page.getByLabel('Result').selectOption('succeeded');
    await page.getByText('No deliveries match these filters').waitFor();
    await check('webhook detail (failed test)');

    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this endpoint?' });
    // Open before axe runs: checked too early, axe saw the page without it.
    await dialog.waitFor();
    await check('webhook delete dialog');
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await heading('Webhooks').waitFor();
    const listed = page.getByRole('row').filter({ hasText: url });
    await expect.poll(() => listed.textContent()).toMatch(/deleted/);
    expect(errors).toEqual([]);
  });

  it('webhook operations: a real event, resend, paging past 10, secret rotation and replay progress', async () => {
    const receiver = await tls.start((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const url = `https://127.0.0.1:${receiver.port}/ops`;
    await (await nav('Webhooks')).click();
    await heading('Webhooks').waitFor();
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByRole('checkbox', { name: /candidate\.created/ }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('link', { name: url }).click();
    await heading('Webhook endpoint').waitFor();

    // A real event: a candidate created through the API reaches the endpoint through the pipeline.
    const created = await fetch(`${stack.baseUrl}/candidates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.demoToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Browser Test Candidate' }),
    });
    expect(created.status).toBe(201);
    const log = page.getByRole('table', { name: /Delivery attempts/ });
    const eventRows = log.getByRole('row').filter({ hasText: 'candidate.created' });
    const refreshUntil = async (rows: typeof eventRows, n: number) => {
      const deadline = Date.now() + 20_000;
      while ((await rows.count()) < n && Date.now() < deadline) {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await sleep(500);
      }
      expect(await rows.count()).toBeGreaterThanOrEqual(n);
    };
    await refreshUntil(eventRows, 1);
    await eventRows
      .first()
      .getByRole('button', { name: /^Resend/ })
      .click();
    await page.getByText(/queued for delivery again/).waitFor();
    await refreshUntil(eventRows, 2);

    // Eleven more attempts: the first page shows 10, the rest are one click away.
    for (let i = 0; i < 11; i++) {
      await page.getByRole('button', { name: 'Send test' }).click();
      await page.getByTestId('test-result').waitFor();
    }
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => log.locator('tbody tr').count()).toBe(10);
    await page.getByRole('button', { name: 'Load older deliveries' }).click();
    await expect.poll(() => log.locator('tbody tr').count()).toBeGreaterThanOrEqual(13);

    await page.getByLabel('Grace period').selectOption({ label: 'Keep the old secret for 1 hour' });
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await rotate.waitFor();
    await check('webhook detail: rotate dialog');
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    expect(await page.getByRole('textbox', { name: 'New signing secret' }).inputValue()).not.toBe('');
    await page.getByText('The old secret stops signing at').waitFor();
    await page.getByRole('button', { name: 'I have copied it' }).click();

    await page.getByRole('button', { name: 'Start replay' }).click();
    await expect.poll(() => page.getByText(/Replay since .*: (running|done)/).count()).toBe(1);
    await expect.poll(() => page.getByText(/Replay since .*: done/).count(), { timeout: 20_000 }).toBe(1);
    await page.getByText(/\d+ of \d+ sent, 0 remaining/).waitFor();
    await check('webhook detail (operations)');
  });

  it('a failed save keeps what was typed and shows the API message', async () => {
    await (await nav('Account')).click();
    await heading('Your account').waitFor();
    await page.getByLabel('Current password').fill('certainly not my password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('New password again').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/current_password is incorrect/);
    expect(await page.getByLabel('New password', { exact: true }).inputValue()).toBe('a brand new passphrase');
    expect(await page.getByLabel('Current password').inputValue()).toBe('certainly not my password');
    await check('account (failed save)');
  });

  // The member of the next three tests, in a browser of their own at 375 px.
  const recruiter = 'recruiter@demo.example';
  let memberContext: BrowserContext | undefined;
  let m: Page;
  let mErrors: string[];
  let temp: string;

  it('members: the admin adds a member and changes roles; the member signs in and sees no admin actions', async () => {
    const email = recruiter;
    await (await nav('Members')).click();
    await heading('Members').waitFor();
    await page.getByRole('cell', { name: admin.email }).first().waitFor();
    await check('members (admin)');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption('recruiter');
    await page.getByRole('button', { name: 'Add member' }).click();
    temp = await page.getByRole('textbox', { name: `Temporary password for ${email}` }).inputValue();
    expect(temp.length).toBeGreaterThanOrEqual(12);
    await check('members: temporary password');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const row = page.getByRole('row').filter({ hasText: email });
    await expect.poll(() => row.textContent()).toMatch(/Recruiter/);
    await check('members (admin, with a member row)');

    await page.getByLabel(`Role of ${email}`).selectOption('admin');
    await page.getByText(`${email} is now admin.`).waitFor();
    await page.getByLabel(`Role of ${email}`).selectOption('recruiter');
    await page.getByText(`${email} is now recruiter.`).waitFor();
    await page.getByRole('button', { name: `Clear lockout of ${email}` }).click();
    await page.getByText(/was not locked out|Cleared \d+ lockout/).waitFor();

    // The member, in a browser of their own: the temporary password leads to the account page first.
    ({ context: memberContext, page: m, errors: mErrors } = await b.openPage({ viewport: { width: 375, height: 800 } }));
    await m.goto('/settings/members');
    await m.getByRole('heading', { level: 1, name: 'Sign in to your workspace' }).waitFor();
    await signIn(email, temp, m);
    await m.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    await m.getByText('You signed in with a temporary password').waitFor();
    await check('account (must change password, 375 px)', m, mErrors);
    const mine = 'a recruiter password of my own';
    await m.getByLabel('Current password').fill(temp);
    await m.getByLabel('New password', { exact: true }).fill(mine);
    await m.getByLabel('New password again').fill(mine);
    await m.getByRole('button', { name: 'Change password' }).click();
    await m.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

    await (await nav('Members', m)).click();
    await m.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await m.getByText('Only workspace admins can add or change members.').waitFor();
    await m.getByRole('cell', { name: admin.email }).first().waitFor();
    expect(await m.getByRole('button', { name: /^(Make|Remove|Reset password|Clear lockout|Deactivate|Reactivate)/ }).count()).toBe(0);
    expect(await m.getByRole('button', { name: 'Add member' }).count()).toBe(0);
    await check('members (member, 375 px)', m, mErrors);

    await (await nav('Pipeline', m)).click();
    await m.getByText('Only workspace admins can change these.').waitFor();
    expect(await m.getByRole('button', { name: 'Save thresholds' }).count()).toBe(0);
    await check('pipeline (member, 375 px)', m, mErrors);
    expect(errors).toEqual([]);
  });

  it("the member's tokens stay within their role and webhooks are read-only to them", async () => {
    const menu = (name: string) => nav(name, m);
    await (await menu('API tokens')).click();
    await m.getByRole('checkbox', { name: /candidates:read/ }).waitFor();
    // Only the scopes a member may grant; and no revoking a token someone else made.
    expect(await m.getByRole('checkbox', { name: /^\*/ }).count()).toBe(0);
    expect(await m.getByRole('checkbox', { name: /candidates:erase/ }).count()).toBe(0);
    await m.getByRole('row').filter({ hasText: b.workspace.tokenName }).waitFor();
    expect(await m.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
    await check('tokens (member, 375 px)', m, mErrors);

    // Webhooks: readable, but every action is for admins.
    await (await menu('Webhooks')).click();
    await m.getByText('Only workspace admins can add, change, test or delete endpoints').waitFor();
    expect(await m.getByRole('button', { name: 'Add endpoint' }).count()).toBe(0);
    await check('webhooks (member, 375 px)', m, mErrors);
    await m.getByRole('region', { name: 'Webhook endpoints table' }).getByRole('link').first().click();
    await m.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    await m.getByRole('heading', { name: 'Delivery log' }).waitFor();
    const actions = /^(Send test|Disable|Enable|Delete endpoint|Save changes|Rotate secret|Start replay|Resend)/;
    expect(await m.getByRole('button', { name: actions }).count()).toBe(0);
    await check('webhook detail (member, 375 px)', m, mErrors);
  });

  it("members: the admin resets the member's password, deactivates and reactivates them, and removes them", async () => {
    await memberContext?.close();
    const email = recruiter;
    await page.getByRole('button', { name: `Reset password of ${email}` }).click();
    const reset = page.getByRole('dialog', { name: `Reset the password of ${email}?` });
    await reset.waitFor();
    await check('members: reset password dialog');
    await reset.getByRole('button', { name: 'Reset password' }).click();
    expect(await page.getByRole('textbox', { name: `Temporary password for ${email}` }).inputValue()).not.toBe(temp);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('button', { name: `Deactivate ${email}` }).click();
    const deactivate = page.getByRole('dialog', { name: `Deactivate ${email}?` });
    await expect.poll(() => deactivate.textContent()).toMatch(/personal API tokens are revoked/);
    await check('members: deactivate dialog');
    await deactivate.getByRole('button', { name: 'Deactivate member' }).click();
    await page.getByText(`${email} was deactivated`).waitFor();
    await expect.poll(() => page.getByRole('row').filter({ hasText: email }).textContent()).toMatch(/deactivated/);
    await check('members: a deactivated member');
    await page.getByRole('button', { name: `Reactivate ${email}` }).click();
    await page.getByText(`${email} can sign in again.`).waitFor();
    await page.getByRole('button', { name: `Remove ${email}` }).click();
    const remove = page.getByRole('dialog', { name: `Remove ${email}?` });
    await remove.waitFor();
    await check('members: remove dialog');
    await remove.getByRole('button', { name: 'Remove member' }).click();
    await page.getByText(`${email} was removed`).waitFor();
    await expect.poll(() => page.getByRole('cell', { name: email }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('lockout: repeated wrong passwords say how long to wait; the admin clears the lockout', async () => {
    const email = 'locked.out@demo.example';
    await (await nav('Members')).click();
    await heading('Members').waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Add member' }).click();
    const temp = await page.getByRole('textbox', { name: `Temporary password for ${email}` }).inputValue();
    await page.getByRole('button', { name: 'I have copied it' }).click();

    const { context: other, page: p, errors: pErrors } = await b.openPage({});
    try {
      await p.goto('/signin');
      const alert = p.getByRole('alert');
      let text = '';
      for (let i = 0; i < 20 && !/Too many failed sign-ins/.test(text); i++) {
        await signIn(email, `wrong password ${i}`, p);
        await expect.poll(async () => (text = (await alert.textContent()) ?? ''), { timeout: 10_000 }).toMatch(/incorrect|Too many/);
        await expect.poll(() => p.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
      }
      expect(text).toMatch(/Too many failed sign-ins for this account\. Try again in \d+ (minutes?|seconds?)/);
      await check('sign-in (locked out)', p, pErrors);

      await page.getByRole('button', { name: `Clear lockout of ${email}` }).click();
      await page.getByText(new RegExp(`Cleared \\d+ lockouts? for ${email.replace('.', '\\.')}`)).waitFor();
      await signIn(email, temp, p);
      await p.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
      expect(pErrors).toEqual([]);
    } finally {
      await other.close();
    }
    expect(errors).toEqual([]);
  });

  it('a threshold change shows up in the overview', async () => {
    await (await nav('Overview')).click();
    const stuck = page.getByRole('table', { name: /Stuck candidates/ });
    await stuck.waitFor();
    const stages = await stuck.locator('tbody tr td:nth-child(2)').allTextContents();
    const stage = stages[0]!;
    expect(stages.filter((s) => s === stage).length).toBeGreaterThan(0);

    await (await nav('Pipeline')).click();
    await heading('Pipeline settings').waitFor();
    const field = page.getByLabel(stage, { exact: true });
    await field.waitFor();
    await check('pipeline settings (admin)');
    await field.fill('0');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    await page.getByText('Thresholds saved.').waitFor();

    await (await nav('Overview')).click();
    await stuck.or(page.getByText('Nobody is stuck')).first().waitFor();
    const after = await stuck.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(after).not.toContain(stage);
    expect(after.length).toBe(stages.length - stages.filter((s) => s === stage).length);

    await (await nav('Pipeline')).click();
    await page.getByLabel(stage, { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    await page.getByText('Thresholds saved.').waitFor();

    // The rejection reasons: one renamed, one added with its type, saved together.
    const before = (await (await page.request.get('/api/settings/pipeline')).json()).data.rejection_reasons as { id: string }[];
    await page.getByLabel('Reason 1', { exact: true }).fill('Skills do not match');
    await page.getByRole('button', { name: 'Add a reason' }).click();
    const added = `Reason ${before.length + 1}`;
    await page.getByLabel(added, { exact: true }).fill('Relocation not possible');
    await page.getByLabel(`Type of reason ${before.length + 1}`, { exact: true }).selectOption('candidate_withdrew');
    await check('pipeline settings: rejection reasons');
    await page.getByRole('button', { name: 'Save rejection reasons' }).click();
    await page.getByText('Rejection reasons saved.').waitFor();
    const saved = (await (await page.request.get('/api/settings/pipeline')).json()).data.rejection_reasons as { id: string }[];
    expect(saved).toHaveLength(before.length + 1);
    expect(saved[0]).toMatchObject({ id: before[0]!.id, label: 'Skills do not match' });
    expect(saved.at(-1)).toEqual({ id: 'relocation_not_possible', label: 'Relocation not possible', type: 'candidate_withdrew' });
    expect(errors).toEqual([]);
  });

  it('audit log: the changes above, newest first, filtered by action, older pages, and an NDJSON export of the filter', async () => {
    await (await nav('Audit log')).click();
    await heading('Audit log').waitFor();
    const table = page.getByRole('table', { name: /Audit records/ });
    await table.waitFor();
    const actions = await table.locator('tbody tr td:nth-child(2)').allTextContents();
    // The threshold saved last is the newest record.
    expect(actions[0]).toBe('settings.pipeline_changed');
    expect(actions).toContain('session.signed_in');
    await check('audit log');
    const older = page.getByRole('button', { name: 'Load older' });
    if (await older.isVisible()) {
      await older.click();
      await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThan(50);
    }
    await page.getByLabel('Action').selectOption('token.created');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect
      .poll(async () => [...new Set(await table.locator('tbody tr td:nth-child(2)').allTextContents())])
      .toEqual(['token.created']);
    const shown = await table.locator('tbody tr').count();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export (NDJSON)' }).click()]);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(shown);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ action: 'token.created', actor: { type: 'user' } });
    await page.getByRole('status').getByText(`Exported ${shown} records.`).waitFor();
    await check('audit log, filtered and exported');
    expect(errors).toEqual([]);
  });

  it('an expired session returns to sign-in, then to the page the user was on', async () => {
    await (await nav('Webhooks')).click();
    await heading('Webhooks').waitFor();
    // The list's request must be answered first: a 401 to it would send the page to sign-in
    // before the click below, which would then find no navigation to click.
    await page.getByRole('region', { name: 'Webhook endpoints table' }).waitFor();
    await context.clearCookies(); // what the idle timeout does, as the browser sees it
    await (await nav('API tokens')).click();
    await heading('Sign in to your workspace').waitFor();
    await page.getByText('Your session has ended').waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/settings/tokens');
    await signIn(admin.email, admin.password);
    await heading('API tokens').waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings/tokens');
    await (await nav('API docs')).click();
    await heading('API reference').waitFor();
    // The reference lists every route; a route's operations render once its group is opened,
    // here by the route's own link, which also names it in the URL.
    const route = page.getByRole('navigation', { name: 'Routes' }).getByRole('link', { name: /^GET\s*\/api\/v1\/candidates$/ });
    await route.waitFor();
    await check('API docs');
    await route.click();
    await page.getByRole('heading', { level: 3, name: /GET\s*\/api\/v1\/candidates$/ }).waitFor();
    expect(new URL(page.url()).hash).toBe('#listCandidates');
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toMatch(/^GET\s*\/api\/v1\/candidates$/);
    await check('API docs: the candidates group open');
    expect(errors).toEqual([]);
  });

  it('signs out, and a signed-out visitor is sent to sign-in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading('Sign in to your workspace').waitFor();
    await page.getByText('You have signed out.').waitFor();
    await page.goto('/settings/webhooks');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/signin');
    expect(errors).toEqual([]);
  });

  it('axe checked every page state the tests reached (each route, each dialog)', () => {
    b.everyStateChecked();
  });
});
