/**
 * The workspace console in a real browser: Debian's Chromium (playwright-core) against the
 * worker's shared local stack (`npm start`: DynamoDB Local, the real handlers, the webhook
 * pipeline), in a workspace of its own: the build, signing in and out, the overview, API tokens,
 * webhooks and their operations, an expired session and the API docs (the team, the pipeline
 * settings and the audit log: console-team.test.ts). One browser for the file; the tests run in
 * order, as one admin's session would. Every page state the tests reach (each route, each dialog opened) is checked
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
import { headingOf, navLink, signInOn } from './console-nav';

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

const heading = (name: string | RegExp) => headingOf(page, name);
const nav = (name: string, on: Page = page) => navLink(on, name);
const signIn = (email: string, password: string, on: Page = page) => signInOn(on, email, password);

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
