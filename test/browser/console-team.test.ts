/**
 * The workspace's team in the console, in a real browser (Debian's Chromium against the worker's
 * shared `npm start`, in a workspace of its own): an admin adds, changes, resets, deactivates and
 * removes a member, who signs in at 375 px and sees what their role allows; a lockout and its
 * clearing; the pipeline settings and the overview they change; and the audit log of all of it.
 * The tests run in order, as one admin's session would. Every page state reached is checked with
 * axe and any browser console error fails the test it happened in.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { browserSuite, type Login } from '../helpers/browser-suite';
import { headingOf, navLink, signInOn } from './console-nav';

const b = browserSuite('console-team', { context: { viewport: { width: 1280, height: 900 } } });
const { check } = b;
let page: Page;
let errors: string[];
let admin: Login;

const heading = (name: string | RegExp) => headingOf(page, name);
const nav = (name: string, on: Page = page) => navLink(on, name);
const signIn = (email: string, password: string, on: Page = page) => signInOn(on, email, password);

beforeAll(async () => {
  ({ page, errors, admin } = b);
  await b.signIn();
  // What the tests below read besides their own changes: an endpoint for the member's read-only
  // view of webhooks (subscribed to an event this workspace never emits), and a token the admin
  // made, for the audit log's filter by action.
  const headers = { Origin: b.origin };
  const endpoint = await page.request.post('/api/webhooks', {
    data: { url: 'https://hooks.example.com/console-team', events: ['offer.accepted'] },
    headers,
  });
  expect(endpoint.status(), await endpoint.text()).toBe(201);
  const token = await page.request.post('/api/tokens', { data: { name: 'Team test sync', scopes: ['candidates:read'] }, headers });
  expect(token.status(), await token.text()).toBe(201);
  await page.goto('/');
  await heading('Overview').waitFor();
  await check('overview');
});

// Generous limits: the steps are quick, but a loaded two-core CI machine can slow a whole page flow down.
describe('the team in the console', { timeout: 90_000 }, () => {
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

  it('axe checked every page state the tests reached (each route, each dialog)', () => {
    b.everyStateChecked();
  });
});
