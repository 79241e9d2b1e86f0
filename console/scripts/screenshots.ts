/**
 * `npm run screenshots`: starts the local stack on a temp DATA_DIR, signs in as the demo admin
 * in Debian's Chromium and writes PNGs of the main pages to docs/ (shown in docs/console.md and the README).
 * A local HTTPS receiver gives the webhook pages a real delivery to show.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { generate } from 'selfsigned';
import { launchChromium } from '../../test/helpers/browser';
import { e2eSandbox, ROOT } from '../../test/helpers/processes';

const out = join(ROOT, 'docs');
mkdirSync(out, { recursive: true });
const sandbox = e2eSandbox();
const certDir = sandbox.freshDir('screenshots-tls');
const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
  keyType: 'ec',
  algorithm: 'sha256',
  extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
});
writeFileSync(join(certDir, 'cert.pem'), pems.cert);
// The stack (a child process) trusts the receiver the way production trusts a real one: its CA store.
process.env.NODE_EXTRA_CA_CERTS = join(certDir, 'cert.pem');
const receiver = https.createServer({ cert: pems.cert, key: pems.private }, (req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"received":true}');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/talent-webhooks`;

const browser = await launchChromium();
try {
  const stack = await sandbox.startLocal(sandbox.freshDir('screenshots'), 90_000);
  const origin = new URL(stack.baseUrl).origin;
  const login = /^\s*Demo login\s+(\S+) \/ (\S+)/m.exec(stack.stdout());
  if (!login) throw new Error('no demo login in the banner');
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const h1 = (p: Page, name: string) => p.getByRole('heading', { level: 1, name }).waitFor();
  const shot = async (p: Page, name: string) => {
    // No focus ring in the pictures (the script runs in the page, hence a string: this file has no DOM types).
    await p.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()');
    await p.screenshot({ path: join(out, `console-${name}.png`), fullPage: true });
    console.log(`docs/console-${name}.png`);
  };

  await page.goto('/signin');
  await h1(page, 'Sign in to your workspace');
  await shot(page, 'signin');
  await page.getByLabel('Email').fill(login[1]!);
  await page.getByLabel('Password', { exact: true }).fill(login[2]!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await h1(page, 'Overview');
  await page.getByRole('figure', { name: 'Candidates per stage' }).waitFor();
  await shot(page, 'overview');

  await page.goto('/settings/tokens');
  await h1(page, 'API tokens');
  await page.getByLabel('Name').fill('Greenhouse sync');
  await page.getByRole('checkbox', { name: /^candidates:write / }).check();
  await page.getByRole('checkbox', { name: /^pipeline:write / }).check();
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.getByText('will not be shown again').waitFor();
  await shot(page, 'tokens');

  await page.goto('/settings/webhooks');
  await h1(page, 'Webhooks');
  await page.getByLabel('Endpoint URL').fill(hookUrl);
  await page.getByLabel('Description (optional)').fill('ATS sync receiver');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await page.getByRole('link', { name: hookUrl }).waitFor();
  await shot(page, 'webhooks');
  await page.getByRole('link', { name: hookUrl }).click();
  await h1(page, 'Webhook endpoint');
  await page.getByRole('button', { name: 'Send test' }).click();
  await page.getByTestId('test-result').waitFor();
  await page.getByRole('table', { name: /Delivery attempts/ }).waitFor();
  await shot(page, 'webhook-detail');

  await page.goto('/settings/members');
  await h1(page, 'Members');
  await page.getByLabel('Email').fill('recruiter@demo.example');
  await page.getByRole('button', { name: 'Add member' }).click();
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await page.getByRole('row').filter({ hasText: 'recruiter@demo.example' }).waitFor();
  await shot(page, 'members');

  await page.goto('/settings/pipeline');
  await h1(page, 'Pipeline settings');
  await shot(page, 'pipeline');

  await page.goto('/candidates');
  await h1(page, 'Candidates');
  await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  await shot(page, 'candidates');
  await page.getByRole('link', { name: 'Ada Lovelace' }).click();
  await h1(page, 'Ada Lovelace');
  await page.getByRole('heading', { level: 2, name: 'Stage history' }).waitFor();
  await shot(page, 'candidate');

  await page.goto('/requisitions');
  await h1(page, 'Requisitions');
  await page.getByRole('link', { name: 'Senior Backend Engineer' }).waitFor();
  await shot(page, 'requisitions');
  await page.getByRole('link', { name: 'Senior Backend Engineer' }).click();
  await h1(page, 'Senior Backend Engineer');
  await page.locator('.card-item').first().waitFor();
  await page.getByRole('heading', { level: 3, name: /^Placed \d+$/ }).waitFor();
  await shot(page, 'requisition');

  // A route's anchor opens its resource's group (the groups render only when opened) and moves
  // focus to it, so the picture shows one operation as a reader finds it.
  await page.goto('/docs#listCandidates');
  await h1(page, 'API reference');
  // The heading comes first; the routes follow once the document is fetched.
  await page.getByRole('heading', { level: 3, name: /GET\s*\/api\/v1\/candidates$/ }).waitFor();
  await page.screenshot({ path: join(out, 'console-docs.png') });
  console.log('docs/console-docs.png');

  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/');
  await h1(page, 'Overview');
  await page.getByRole('figure', { name: 'Candidates per stage' }).waitFor();
  await page.screenshot({ path: join(out, 'console-overview-375.png') });
  console.log('docs/console-overview-375.png');
  await page.goto('/requisitions');
  await page.getByRole('link', { name: 'Product Designer' }).click();
  await h1(page, 'Product Designer');
  await page.getByRole('heading', { level: 3, name: /^Placed \d+$/ }).waitFor();
  await page.screenshot({ path: join(out, 'console-board-375.png') });
  console.log('docs/console-board-375.png');
} finally {
  await browser.close();
  receiver.closeAllConnections();
  receiver.close();
  await sandbox.cleanup();
}
