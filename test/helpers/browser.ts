/**
 * Debian's Chromium driven by playwright-core, for the console's browser tests. The browser
 * Playwright would download cannot be fetched here, so the tests use Debian's build of Chromium's
 * headless shell, /usr/bin/chromium-headless-shell, and fail (never skip) when it is missing. The
 * shell is the build Playwright itself runs headless: the full browser's headless mode (Debian's
 * `chromium`) carries the whole browser's machinery and spends markedly more CPU on the same pages.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Result } from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Running } from './processes';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

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
/**
 * For the tests: V8 held to its interpreter and baseline compiler (`--max-opt=1`, no Maglev or
 * TurboFan) with its garbage collector on the main thread. A test page lives for seconds, too
 * short for the optimising compilers' background work to pay back, and axe's first check on each
 * fresh document cost several times its later ones while they compiled. Both change how fast
 * scripts run, never what they do; a timing of the console's own (the bench's board) asks for
 * V8 as users' browsers run it instead.
 */
const TEST_V8 = '--js-flags=--max-opt=1 --single-threaded-gc';

export async function launchChromium(opts: { v8?: 'test' | 'default' } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. The browser tests need Debian's chromium-headless-shell package: ` +
        'run `apt-get update && apt-get install -y chromium-headless-shell` as root (.ci/run does this on CI).',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: opts.v8 === 'default' ? ARGS : [...ARGS, TEST_V8] });
}

/**
 * Chromium and the local stack, started at once (each takes seconds), so a missing Chromium still
 * fails at once with how to install it. `onBrowser` gets the browser as soon as it is up, so that
 * an afterAll can close it even when the stack failed to start. The demo login is the banner's.
 */
export async function chromiumWithStack(start: () => Promise<Running>, onBrowser: (b: Browser) => void) {
  const [browser, stack] = await Promise.all([
    launchChromium().then((b) => {
      onBrowser(b);
      return b;
    }),
    start(),
  ]);
  const login = /^\s*Demo login\s+(\S+) \/ (\S+)/m.exec(stack.stdout());
  if (!login) throw new Error(`no demo login in the banner:\n${stack.stdout()}`);
  return { browser, stack, origin: new URL(stack.baseUrl).origin, admin: { email: login[1]!, password: login[2]! } };
}

/**
 * Playwright asks Chromium to intercept file choosers when a page gets its first 'filechooser'
 * listener, without waiting for Chromium's answer, and stops when the last one goes. A
 * `waitForEvent('filechooser')` alone is that first listener each time, so its key press could
 * reach the page before the interception was back on: the chooser then opened unseen and the wait
 * timed out (seen failing: the second file chosen on a page). One listener for the page's whole
 * life keeps the interception on from the start.
 */
export function interceptFileChoosers(page: Page): void {
  page.on('filechooser', () => {});
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
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text) && new URL(url).pathname.startsWith('/api/'))
      return;
    errors.push(`${text} (${url})`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  return errors;
}

export interface AxeSummary {
  page: string;
  violations: { id: string; impact: string | null | undefined; nodes: number; targets: string[] }[];
}

/**
 * axe-core ships these as "experimental": off unless enabled by name. The console must pass them
 * (an accessible name that does not contain the visible label breaks voice control).
 */
export const EXPERIMENTAL_RULES_ON = ['label-content-name-mismatch'];

const AXE_LOADED = 'typeof window.axe?.run === "function"';
/**
 * axe's minified build, of the very package @axe-core/playwright would run. Its AxeBuilder
 * evaluates the unminified build (over twice the bytes) in the main frame twice and in every frame
 * once more, on each check: parsing and compiling it cost a fresh document's first check more
 * than its rules did.
 */
const AXE_MIN_SOURCE = readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve('axe-core/axe.min.js'),
  'utf8',
);
/**
 * noHtml: no HTML snippet of each node a rule looked at (the outer HTML of <html> included, i.e.
 * the whole document, for the page-level rules): nothing here reads it, the report names targets.
 */
const AXE_CONFIGURE = `axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' }, noHtml: true })`;

/** Run axe on the page as it is now; returns every violation, the caller asserts on serious/critical. */
export async function axe(page: Page, label: string): Promise<AxeSummary> {
  // axe.run in the page itself, not AxeBuilder's default mode: that runs each frame's part, then
  // opens a blank page (a new renderer process), injects axe there again and merges the parts:
  // it doubled a check's CPU on a console page, and only cross-origin frames need it. Same-origin
  // frames are still checked; a cross-origin one would go unchecked here, so it fails instead.
  const origin = new URL(page.url()).origin;
  const foreign = page.frames().filter((f) => /^https?:/.test(f.url()) && new URL(f.url()).origin !== origin);
  if (foreign.length) throw new Error(`axe on ${label}: cross-origin frames ${foreign.map((f) => f.url()).join(', ')} are not checked`);
  // axe stays in a document once there. A frame it cannot get into stays unchecked, as with
  // AxeBuilder's own injection; the main frame's failure fails the check.
  await Promise.all(
    page.frames().map((f) =>
      (async () => {
        if (await f.evaluate(AXE_LOADED)) return;
        await f.evaluate(AXE_MIN_SOURCE);
        await f.evaluate(AXE_CONFIGURE);
      })().catch((err) => {
        if (f === page.mainFrame()) throw err;
      }),
    ),
  );
  const options = {
    rules: Object.fromEntries(EXPERIMENTAL_RULES_ON.map((id) => [id, { enabled: true }])),
    // Only violations get their nodes' selectors worked out (the other groups still list every
    // rule, with one node each): axe's own advice for large pages, and most of its time here.
    resultTypes: ['violations'],
  };
  const result = (await page.evaluate(
    `axe.run(document, ${JSON.stringify(options)}).then((r) => ({ violations: r.violations, ran: [...r.passes, ...r.violations, ...r.incomplete, ...r.inapplicable].map((x) => x.id) }))`,
  )) as { violations: Result[]; ran: string[] };
  // A rule that silently stopped running would pass every page: make sure each one ran.
  const ran = new Set(result.ran);
  const missing = EXPERIMENTAL_RULES_ON.filter((id) => !ran.has(id));
  if (missing.length) throw new Error(`axe did not run ${missing.join(', ')} on ${label}`);
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

/**
 * The state a page is in, as the axe coverage counts it: the route (long ids as :id) and the
 * title of the open modal dialog, if any (emails and quoted names elided).
 */
const STATE_OF = `() => {
  const path = location.pathname.replace(/\\/[^/]{20,}(?=\\/|$)/g, '/:id');
  const dialog = document.querySelector('dialog[open]');
  if (!dialog) return path;
  const titleId = dialog.getAttribute('aria-labelledby');
  const title = ((titleId && document.getElementById(titleId)?.textContent) || '')
    .replace(/[^\\s@]+@[^\\s@]+/g, '<email>')
    .replace(/“[^”]*”/g, '“…”')
    .trim();
  return path + ' + dialog "' + title + '"';
}`;

/**
 * Records every state the page reaches (each route and each dialog opened), so a test can prove
 * that axe looked at all of them: see `pageState` for the key of the state axe ran on.
 */
export async function trackPageStates(page: Page, seen: Set<string>): Promise<void> {
  await page.exposeBinding('__reportPageState', (_source, state: string) => void seen.add(state));
  await page.addInitScript(`(() => {
    const stateOf = ${STATE_OF};
    window.__pageStateOf = stateOf;
    let last;
    const report = () => {
      const state = stateOf();
      if (state !== last) {
        last = state;
        window.__reportPageState(state);
      }
    };
    new MutationObserver(report).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] });
    addEventListener('popstate', report);
  })()`);
}

/** The key `trackPageStates` records for the page as it is now. */
export const pageState = (page: Page): Promise<string> => page.evaluate(`(${STATE_OF})()`);
