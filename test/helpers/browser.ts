/**
 * Debian's Chromium driven by playwright-core, for the console's browser tests. The browser
 * Playwright would download cannot be fetched here, so the tests use Debian's build of Chromium's
 * headless shell, /usr/bin/chromium-headless-shell, and fail (never skip) when it is missing. The
 * shell is the build Playwright itself runs headless: the full browser's headless mode (Debian's
 * `chromium`) carries the whole browser's machinery and spends markedly more CPU on the same pages.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
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

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. The browser tests need Debian's chromium-headless-shell package: ` +
        'run `apt-get update && apt-get install -y chromium-headless-shell` as root (.ci/run does this on CI).',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
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
  /**
   * What axe ran on: the whole page, only the paint rules on a changed part (the rest on the
   * whole page), or nothing, as the same state was verified before in this document or worker.
   */
  scope: 'whole' | 'part' | 'same' | 'seen';
  violations: { id: string; impact: string | null | undefined; nodes: number; targets: string[] }[];
}

/**
 * axe-core ships these as "experimental": off unless enabled by name. The console must pass them
 * (an accessible name that does not contain the visible label breaks voice control).
 */
export const EXPERIMENTAL_RULES_ON = ['label-content-name-mismatch'];

const AXE_LOADED = 'typeof window.axe?.run === "function"';
/**
 * axe's minified build, of the very package AxeBuilder would run. AxeBuilder evaluates its source
 * (the unminified build, over twice the bytes) in the main frame twice and in every frame once
 * more, on each check: parsing and compiling it cost a fresh document's first check more than
 * its rules did.
 */
const AXE_MIN_SOURCE = readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * The rules whose verdict on an element depends on how it is painted: its colours, its
 * ancestors' backgrounds and whatever else is drawn where it is. They are most of a check's time
 * (colour-contrast alone about three quarters on a console page, growing with the page's text).
 */
const PAINT_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * In the page: what axe's verdicts depend on, one token per node in document order: each
 * element's tag, attributes, the computed style the paint rules read (which covers what focus
 * and the pointer change), form state (value, checked, selected) and scroll offsets, with its box
 * on the page; each text node's text; and first the viewport, zoom and media features.
 * `window.__axePlan()` compares them with the state the document's last check verified
 * (`window.__axeVerified`) and returns:
 *   'same'   nothing changed: the last check's verdicts stand;
 *   'part'   every node that changed lies within one element (`window.__axePart`, below <body>),
 *            every node outside it is as it was, box included, and none but its ancestors
 *            overlaps it, unless it is a modal dialog;
 *   'whole'  anything else (no earlier check, frames or shadow roots, a change reaching <body>).
 */
const AXE_PLAN = `(() => {
  if (window.__axePlan) return;
  // What the paint rules read of an element's computed style, which its attributes alone do not
  // fix (a rule like tr:nth-child(even) changes a row's background when a row is added above it).
  const STYLE = ['display', 'visibility', 'opacity', 'position', 'z-index', 'color', 'background-color', 'background-image',
    'font-size', 'font-weight', 'text-shadow', 'text-decoration', 'border-bottom', 'filter', 'mix-blend-mode', 'clip-path'];
  const MEDIA = ['(pointer: coarse)', '(hover: hover)', '(prefers-reduced-motion: reduce)', '(prefers-color-scheme: dark)', '(forced-colors: active)'];
  const snapshot = () => {
    const tokens = [];
    const boxes = [];
    const els = [];
    tokens.push('0|' + [innerWidth, innerHeight, devicePixelRatio, MEDIA.map((q) => +matchMedia(q).matches).join('')].join());
    boxes.push(null);
    els.push(null);
    let opaque = false;
    const walk = (node, depth) => {
      if (node.nodeType === 3) {
        tokens.push(depth + '|#' + node.data);
        boxes.push(null);
        els.push(null);
        return;
      }
      if (node.nodeType !== 1) return;
      if (node.shadowRoot || node.localName === 'iframe' || node.localName === 'frame') opaque = true;
      const r = node.getBoundingClientRect();
      const style = getComputedStyle(node);
      let t = depth + '|<' + node.localName;
      for (const a of node.attributes) t += ' ' + a.name + '=' + JSON.stringify(a.value);
      for (const prop of STYLE) t += ' ' + style.getPropertyValue(prop);
      if ('value' in node && /^(input|textarea|select)$/.test(node.localName)) t += ' :value=' + JSON.stringify(node.value);
      if (node.localName === 'input') t += ' :checked=' + node.checked + node.indeterminate;
      if (node.localName === 'option') t += ' :selected=' + node.selected;
      if ((node.scrollTop || node.scrollLeft) && node !== document.scrollingElement) t += ' :scroll=' + node.scrollTop + ',' + node.scrollLeft;
      tokens.push(t);
      boxes.push([r.x + scrollX, r.y + scrollY, r.width, r.height]);
      els.push(node);
      for (const c of node.childNodes) walk(c, depth + 1);
    };
    walk(document.documentElement, 1);
    return { tokens, boxes, els, opaque };
  };
  const sameBox = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
  window.__axeSnapshot = snapshot;
  window.__axeSame = (a, b) =>
    a.tokens.length === b.tokens.length && a.tokens.every((t, i) => t === b.tokens[i] && (!a.boxes[i] || sameBox(a.boxes[i], b.boxes[i])));
  window.__axePlan = () => {
    const now = snapshot();
    window.__axePending = now;
    const last = window.__axeVerified;
    if (!last || now.opaque) return { plan: 'whole' };
    if (window.__axeSame(now, last)) return { plan: 'same' };
    // Each node's token with its box: outside the part, nothing may differ, not even a position.
    const joined = (x) => x.tokens.map((t, i) => (x.boxes[i] ? x.boxes[i].join() + t : t));
    const C = joined(now);
    const W = joined(last);
    const max = Math.min(C.length, W.length);
    let p = 0;
    while (p < max && C[p] === W[p]) p++;
    let q = 0;
    while (q < max - p && C[C.length - 1 - q] === W[W.length - 1 - q]) q++;
    const end = C.length - q;
    // Where each element's subtree ends: the next token no deeper than its own.
    const depth = now.tokens.map((t) => parseInt(t, 10));
    const spanEnd = new Array(C.length).fill(C.length);
    const open = [];
    for (let i = 0; i < C.length; i++) {
      while (open.length && depth[open[open.length - 1]] >= depth[i]) spanEnd[open.pop()] = i;
      if (now.els[i]) open.push(i);
    }
    // The deepest element whose subtree holds every changed token (or, for a removal, the spot):
    // every token before it matched the verified state's start, every one after it its end.
    let a = Math.min(p, C.length - 1);
    while (a >= 2 && !(now.els[a] && spanEnd[a] >= end)) a--;
    if (a < 2 || now.els[a] === document.body) return { plan: 'whole' };
    // Nothing outside may overlap what the part draws (unless the part is a modal dialog, drawn
    // above everything): what it draws under an element would change that element's contrast.
    if (!now.els[a].matches(':modal')) {
      const drawn = now.boxes.slice(a, spanEnd[a]).filter((b) => b && b[2] > 0 && b[3] > 0);
      const overlaps = (b) => drawn.some((d) => b[0] < d[0] + d[2] && d[0] < b[0] + b[2] && b[1] < d[1] + d[3] && d[1] < b[1] + b[3]);
      for (let i = 1; i < C.length; i++) {
        const outside = i < a || i >= spanEnd[a];
        const ancestor = i < a && spanEnd[i] >= spanEnd[a];
        if (outside && !ancestor && now.boxes[i] && overlaps(now.boxes[i])) return { plan: 'whole' };
      }
    }
    window.__axePart = now.els[a];
    return { plan: 'part' };
  };
})()`;

/**
 * Runs axe as `window.__axePlan` decided, in the page, then takes the snapshot again: the state
 * counts as verified only if nothing changed while axe ran. A part plan runs every rule but the
 * paint rules on the whole document, and the paint rules on the changed element only.
 */
const AXE_RUN = `async ({ options, plan, paintRules }) => {
  const pending = window.__axePending;
  const pick = (r) => ({ violations: r.violations, ran: [...r.passes, ...r.violations, ...r.incomplete, ...r.inapplicable].map((x) => x.id) });
  let results;
  if (plan === 'part') {
    const off = Object.fromEntries(paintRules.map((id) => [id, { enabled: false }]));
    const rest = pick(await axe.run(document, { ...options, rules: { ...options.rules, ...off } }));
    const paint = pick(await axe.run(window.__axePart, { ...options, runOnly: { type: 'rule', values: paintRules } }));
    results = { violations: [...rest.violations, ...paint.violations], ran: [...rest.ran, ...paint.ran] };
  } else results = pick(await axe.run(document, options));
  window.__axePart = undefined;
  const stable = window.__axeSame(window.__axeSnapshot(), pending);
  window.__axeVerified = stable ? pending : undefined;
  return { ...results, stable };
}`;

const AXE_CONFIGURE = `axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } })`;

type Violations = AxeSummary['violations'];
/**
 * The verdicts on each whole page state checked in this worker, by its snapshot: a state met again
 * in another document (the sign-in page, in each file that signs in through it) is the same state.
 */
const verdictsByState = new Map<string, Violations>();

/**
 * Run axe on the page as it is now; returns every violation, the caller asserts on serious/critical.
 *
 * A state already verified is not checked again, and a state that differs from the document's
 * last verified one only within one element gets the paint rules on that element alone (every
 * other rule still runs on the whole page). That is the same coverage: the snapshot (AXE_PLAN)
 * holds what the paint rules read of each element outside the change (its attributes, text and
 * computed colours, its ancestors', every box, form state, viewport and media), all as they were
 * when they were verified, and nothing it overlaps but its ancestors, so their verdicts stand. A
 * modal dialog may overlap anything: it is drawn above the rest, which it can only hide from axe.
 */
export async function axe(page: Page, label: string): Promise<AxeSummary> {
  // axe.run in the page itself, not AxeBuilder's default mode: that runs each frame's part, then
  // opens a blank page (a new renderer process), injects axe there again and merges the parts:
  // it doubled a check's CPU on a console page, and only cross-origin frames need it. Same-origin
  // frames are still checked; a cross-origin one would go unchecked here, so it fails instead.
  const origin = new URL(page.url()).origin;
  const foreign = page.frames().filter((f) => /^https?:/.test(f.url()) && new URL(f.url()).origin !== origin);
  if (foreign.length) throw new Error(`axe on ${label}: cross-origin frames ${foreign.map((f) => f.url()).join(', ')} are not checked`);

  await page.evaluate(AXE_PLAN);
  const planned = (await page.evaluate(`(() => {
    const { plan } = window.__axePlan();
    if (plan === 'same') return { plan, violations: window.__axeViolations };
    if (plan !== 'whole' || window.__axeVerified) return { plan };
    const { tokens, boxes } = window.__axePending;
    return { plan, state: tokens.map((t, i) => (boxes[i] ? boxes[i].join() + t : t)).join('\\n') };
  })()`)) as { plan: 'same' | 'part' | 'whole'; violations?: Violations; state?: string };
  const { plan } = planned;
  if (plan === 'same') return { page: label, scope: 'same', violations: planned.violations! };
  const key = planned.state === undefined ? undefined : createHash('sha256').update(planned.state).digest('base64');
  const seen = key && verdictsByState.get(key);
  if (seen) {
    await page.evaluate(`window.__axeVerified = window.__axePending; window.__axeViolations = ${JSON.stringify(seen)}`);
    return { page: label, scope: 'seen', violations: seen };
  }

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
  type Run = { violations: Result[]; ran: string[]; stable: boolean };
  const run = (p: string) =>
    page.evaluate(`(${AXE_RUN})(${JSON.stringify({ options, plan: p, paintRules: PAINT_RULES })})`) as Promise<Run>;
  let result = await run(plan);
  let scope: AxeSummary['scope'] = plan;
  // The page changed while a part was checked: what was outside it is no longer the state verified.
  if (plan === 'part' && !result.stable) {
    result = await run('whole');
    scope = 'whole';
  }
  // A rule that silently stopped running would pass every page: make sure each one ran.
  const ran = new Set(result.ran);
  const missing = [...EXPERIMENTAL_RULES_ON, ...PAINT_RULES].filter((id) => !ran.has(id));
  if (missing.length) throw new Error(`axe did not run ${missing.join(', ')} on ${label}`);
  const violations = result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    nodes: v.nodes.length,
    targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
  }));
  if (result.stable) {
    await page.evaluate(`window.__axeViolations = ${JSON.stringify(violations)}`);
    if (key) verdictsByState.set(key, violations);
  }
  return { page: label, scope, violations };
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
