/**
 * Debian's Chromium driven by playwright-core, for the console's browser tests. The browser
 * Playwright would download cannot be fetched here, so the tests use /usr/bin/chromium and
 * fail (never skip) when it is missing.
 */
import { existsSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a closed network: without the background ones Chromium keeps calling Google's hosts. */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. The browser tests need Debian's chromium package: ` +
        'run `apt-get update && apt-get install -y chromium` as root (.ci/run does this on CI).',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/**
 * Every console error and uncaught page error, CSP violations included. The one exception is
 * Chromium's "Failed to load resource" line for an API answer of 4xx (a wrong password, the 401
 * that tells the page nobody is signed in): the page handles those, and each test asserts the
 * message the user sees instead.
 */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    const url = msg.location().url;
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text) && new URL(url).pathname.startsWith('/api/')) return;
    errors.push(`${text} (${url})`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  return errors;
}

export interface AxeSummary {
  page: string;
  violations: { id: string; impact: string | null | undefined; nodes: number; targets: string[] }[];
}

/** Run axe on the page as it is now; returns every violation, the caller asserts on serious/critical. */
export async function axe(page: Page, label: string): Promise<AxeSummary> {
  const result = await new AxeBuilder({ page }).analyze();
  return {
    page: label,
    violations: result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    })),
  };
}

export const seriousOf = (s: AxeSummary) => s.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
