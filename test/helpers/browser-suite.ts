/**
 * `browserSuite(label)`: what every browser file sets up, once. At the file's top level:
 *
 *   const b = browserSuite('notes');
 *   it('...', async () => { await b.signIn(); await b.page.goto('/candidates'); await b.check('candidates'); });
 *
 * It registers the file's beforeAll and afterAll: its worker's Chromium, a workspace of the file's
 * own in its worker's shared `npm start` (browser-runtime.ts), a page on the console with its
 * console errors and page states recorded, and the keyboard helpers. The workspace holds the
 * demo's data, an admin and a member of each role (seed-workspace.ts), with emails no other file
 * uses. The last test of a file calls `b.everyStateChecked()` to prove axe looked at every state
 * it reached.
 */
import { afterAll, beforeAll, expect, inject } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import {
  axe,
  collectConsoleErrors,
  interceptFileChoosers,
  launchChromium,
  pageState,
  seriousOf,
  trackPageStates,
  type AxeSummary,
} from './browser';
import type { SharedRuntime } from './browser-runtime';
import type { SeededWorkspace } from './seed-workspace';

export type Login = { email: string; password: string };

export interface BrowserSuite {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors of `page` so far. */
  errors: string[];
  /** The runtime's API base URL (`…/api/v1`), its origin (the console's) and its banner. */
  runtime: SharedRuntime;
  origin: string;
  workspace: SeededWorkspace;
  /** The workspace's admin. */
  admin: Login;
  /** Page states reached (`trackPageStates`) and page states axe ran on; every axe result. */
  reached: Set<string>;
  checked: Set<string>;
  axeRuns: AxeSummary[];
  /**
   * axe on the page as it stands (no serious or critical violation) and no console error so far
   * (on `page`, or on `on` and, unless given, the errors `openPage` collects for it).
   */
  check(label: string, on?: Page, errs?: string[]): Promise<void>;
  /** Another page in a context of its own (or in `context`), its errors collected and its states tracked. */
  openPage(opts?: BrowserContextOptions & { context?: BrowserContext }): Promise<{ page: Page; errors: string[]; context: BrowserContext }>;
  /** Fails naming each state reached without an axe check. */
  everyStateChecked(): void;
  /** The admin's (or `who`'s) session on `page`'s context, through the API. */
  signIn(who?: Login): Promise<void>;
  /** Once it is enabled, focus and press, as a keyboard user does. */
  press(target: Locator, key?: string): Promise<void>;
  /** Select all of a field's text, delete it, and type `text`. */
  typeInto(field: Locator, text: string): Promise<void>;
  /** An email in the workspace's own domain: unique to this file across the shared runtime. */
  email(local: string): string;
}

/** The sign-in body of a seeded member (the session route refuses unknown fields). */
export const loginOf = (m: { email: string; password: string }): Login => ({ email: m.email, password: m.password });

/**
 * One Chromium per worker, shared by the files it runs one after another (the browser project does
 * not isolate its files) instead of a launch per file. Each file has contexts of its own and
 * closes them all at its end. Launched again if it went away; a missing Chromium fails
 * every file's beforeAll.
 */
let chromium: Promise<Browser> | undefined;
async function sharedChromium(): Promise<Browser> {
  const running = await chromium?.catch(() => undefined);
  if (!running?.isConnected()) chromium = launchChromium();
  return chromium!;
}

async function ask<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${inject('browserRuntime')}${path}`, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`the browser runtime could not answer ${path}: ${await res.text()}`);
  return (await res.json()) as T;
}

const DEFAULT_CONTEXT: BrowserContextOptions = { viewport: { width: 1024, height: 800 } };

/** `context`: the main page's context options (a 1024 x 800 screen unless given). */
export function browserSuite(label: string, opts: { context?: BrowserContextOptions } = {}): BrowserSuite {
  const s = { reached: new Set<string>(), checked: new Set<string>(), axeRuns: [] as AxeSummary[] } as BrowserSuite;
  let browser: Browser | undefined;
  const errorsOf = new WeakMap<Page, string[]>();

  beforeAll(async () => {
    // Chromium and the workspace at once: each takes seconds, and a missing Chromium fails at once.
    const [launched, ws] = await Promise.all([
      sharedChromium().then((b) => (browser = b)),
      ask<SharedRuntime>('/runtime', { worker: process.env.VITEST_POOL_ID ?? '1' }).then(async (runtime) => ({
        runtime,
        workspace: await ask<SeededWorkspace>('/workspace', { runtime: runtime.id, label }),
      })),
    ]);
    Object.assign(s, ws, { browser: launched, origin: ws.runtime.origin, admin: loginOf(ws.workspace.members.admin!) });
    ({ page: s.page, errors: s.errors, context: s.context } = await s.openPage(opts.context ?? DEFAULT_CONTEXT));
  }, 150_000);

  afterAll(async () => {
    await Promise.all(browser?.contexts().map((c) => c.close()) ?? []);
    const bad = s.axeRuns.filter((r) => r.violations.length);
    if (s.axeRuns.length)
      console.log(
        `axe: ${s.axeRuns.length} page states; ${bad.length ? bad.map((r) => `${r.page}: ${r.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes}: ${v.targets.join(', ')})`).join(', ')}`).join('; ') : 'no violations'}`,
      );
  });

  s.openPage = async ({ context, ...options } = DEFAULT_CONTEXT) => {
    const ctx = context ?? (await s.browser.newContext({ baseURL: s.origin, ...options }));
    const page = await ctx.newPage();
    page.setDefaultTimeout(15_000);
    interceptFileChoosers(page);
    const errors = collectConsoleErrors(page);
    errorsOf.set(page, errors);
    await trackPageStates(page, s.reached);
    return { page, errors, context: ctx };
  };
  s.check = async (what, on = s.page, errs = errorsOf.get(on) ?? []) => {
    s.checked.add(await pageState(on));
    const summary = await axe(on, what);
    s.axeRuns.push(summary);
    expect(seriousOf(summary), `axe on ${what}`).toEqual([]);
    expect(errs, `browser console on ${what}`).toEqual([]);
  };
  s.everyStateChecked = () => {
    expect(s.reached.size).toBeGreaterThan(0);
    expect(
      [...s.reached].filter((state) => !s.checked.has(state)),
      'page states reached without an axe check',
    ).toEqual([]);
  };
  s.signIn = async (who = s.admin) => {
    expect((await s.page.request.post('/api/session', { data: who })).status()).toBe(200);
  };
  s.press = async (target, key = 'Enter') => {
    // A disabled control takes no focus, so the key would land elsewhere and do nothing: a button
    // stays disabled while its last action's reloads finish, as the user sees it.
    await expect.poll(() => target.isEnabled(), { timeout: 15_000 }).toBe(true);
    await target.focus();
    await target.press(key);
  };
  s.typeInto = async (field, text) => {
    await field.focus();
    await field.press('ControlOrMeta+a');
    await field.press('Delete');
    await s.page.keyboard.type(text);
  };
  s.email = (local) => `${local}@${s.workspace.slug}.example`;
  return s;
}
