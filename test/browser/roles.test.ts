/**
 * Each role in a real browser (Debian's Chromium against the worker's shared `npm start`, in a
 * workspace of its own): a recruiter, a hiring manager and an interviewer sign in and see only
 * their navigation, their records and the actions their role may take (`may` from
 * lib/permissions.ts, as the API enforces it); the interviewer's empty list says why it is empty.
 * Every state is checked with axe (no serious or critical violation) and no console error.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, collectConsoleErrors, pageState, seriousOf, trackPageStates } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';

// The workspace's seeded members, one of each role (test/helpers/seed-workspace.ts).
const b = browserSuite('roles');
/** The hiring manager's requisition and candidate, and a candidate of a requisition they are not on. */
const seen = { req: '', reqTitle: 'Role Check Seen Engineer', candidate: '', name: 'Rosalind Seen' };
const hidden = { req: '', reqTitle: 'Role Check Hidden Engineer', candidate: '', name: 'Hector Hidden' };
/** Page states reached (trackPageStates) and page states axe ran on, by role. */
const reached = new Set<string>();
const checked = new Set<string>();
type Role = 'recruiter' | 'hiring_manager' | 'interviewer';
const member = (role: Role) => b.workspace.members[role]!;

/** The workspace token's call to the API (`/api/v1…`). */
async function v1(path: string, body: unknown) {
  const res = await fetch(`${b.runtime.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${b.workspace.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return JSON.parse(text).data as { id: string };
}

beforeAll(async () => {
  // The team and the candidates, made with the workspace's token.
  for (const [r, team] of [
    [seen, { recruiter_id: member('recruiter').id, hiring_manager_ids: [member('hiring_manager').id] }],
    [hidden, { recruiter_id: member('recruiter').id }],
  ] as const) {
    r.req = (await v1('/requisitions', { title: r.reqTitle, ...team })).id;
    r.candidate = (
      await v1('/candidates', { name: r.name, email: `${r.name.split(' ')[0]!.toLowerCase()}@example.org`, req_id: r.req })
    ).id;
  }
});

/** A page signed in as the role's member, with its console errors collected and an axe check. */
async function signedIn(role: Role) {
  const context = await b.browser.newContext({ baseURL: b.origin, viewport: { width: 1024, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = collectConsoleErrors(page);
  const check = async (label: string) => {
    expect(seriousOf(await axe(page, `${role}: ${label}`)), `axe on ${role}: ${label}`).toEqual([]);
    expect(errors, `browser console on ${role}: ${label}`).toEqual([]);
    checked.add(`${role} ${await pageState(page)}`);
  };
  const states = new Set<string>();
  await trackPageStates(page, states);
  await page.goto('/signin');
  await page.getByLabel('Email').waitFor();
  await check('sign-in');
  await page.getByLabel('Email').fill(member(role).email);
  await page.getByLabel('Password', { exact: true }).fill(member(role).password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.or(page.getByRole('alert')).first().waitFor();
  if (!(await nav.isVisible())) throw new Error(`${role} was not signed in: ${await page.getByRole('alert').first().textContent()}`);
  const close = async () => {
    for (const st of states) reached.add(`${role} ${st}`);
    await context.close();
  };
  return { page, check, close };
}

const navOf = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();

/** The candidate names the list shows, once it has loaded. */
async function listed(page: Page): Promise<string[]> {
  await page.goto('/candidates');
  // The count line, once the list has loaded ("Loading the candidates…" is a status too).
  await page.locator('.result-status', { hasText: /^\d+ candidates?/ }).waitFor();
  return page.locator('td[data-label="Name"] a').allTextContents();
}

describe('each role sees only its navigation, records and actions', { timeout: 180_000 }, () => {
  it('a recruiter: every page of recruiting work, every candidate, and the actions', async () => {
    const { page, check, close } = await signedIn('recruiter');
    try {
      expect(await navOf(page)).toEqual(['Overview', 'Candidates', 'Requisitions', 'Placements', 'My interviews', 'Settings', 'Account']);
      await check('overview');
      const names = await listed(page);
      expect(names).toEqual(expect.arrayContaining([seen.name, hidden.name]));
      await page.getByRole('button', { name: 'Add candidate', exact: true }).waitFor();
      expect(await page.getByRole('link', { name: 'Import from a CSV file' }).count()).toBe(1);
      await check('candidates');
      await page.goto('/requisitions');
      await page.getByRole('button', { name: 'New requisition' }).waitFor();
      await check('requisitions');
    } finally {
      await close();
    }
  });

  it('a hiring manager: their requisition and its candidate only; moves and notes, no create, edit or erase', async () => {
    const { page, check, close } = await signedIn('hiring_manager');
    try {
      expect(await navOf(page)).toEqual(['Overview', 'Candidates', 'Requisitions', 'Placements', 'My interviews', 'Settings', 'Account']);
      await check('overview');
      expect(await listed(page)).toEqual([seen.name]);
      expect(await page.getByRole('button', { name: 'Add candidate', exact: true }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Import from a CSV file' }).count()).toBe(0);
      await check('candidates');

      await page.goto('/requisitions');
      await page.getByRole('link', { name: seen.reqTitle }).waitFor();
      expect(await page.getByRole('link', { name: hidden.reqTitle }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'New requisition' }).count()).toBe(0);
      await check('requisitions');

      await page.goto(`/candidates/${seen.candidate}`);
      await page.getByRole('heading', { level: 2, name: 'Notes' }).waitFor();
      await page.getByRole('button', { name: `Move ${seen.name}` }).waitFor();
      await page.getByLabel('New note').waitFor();
      for (const name of ['Edit profile', 'Add to another job…', 'Move to another job…', 'Erase this candidate…'])
        expect(await page.getByRole('button', { name }).count(), name).toBe(0);
      await check('their candidate');

      // Another job's candidate is not found, as one that does not exist.
      await page.goto(`/candidates/${hidden.candidate}`);
      await page
        .getByText(/not found/i)
        .first()
        .waitFor();
      expect(await page.getByText(hidden.name).count()).toBe(0);
      await check('a hidden candidate');
    } finally {
      await close();
    }
  });

  it('an interviewer: lands on My interviews, nothing to recruit, and an empty list that says why', async () => {
    const { page, check, close } = await signedIn('interviewer');
    try {
      expect(await navOf(page)).toEqual(['Overview', 'Candidates', 'My interviews', 'Settings', 'Account']);
      await page.getByRole('heading', { level: 1, name: 'My interviews' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/interviews');
      await page.getByText('No interviews today or to come.').waitFor();
      await check('my interviews, none yet');
      await page.goto('/candidates');
      await page.getByText('As an interviewer you see only the candidates you are assigned to interview').waitFor();
      expect(await page.locator('table tbody tr').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Add candidate', exact: true }).count()).toBe(0);
      await check('empty candidates');
      await page.goto(`/candidates/${seen.candidate}`);
      await page
        .getByText(/not found/i)
        .first()
        .waitFor();
      await check('a candidate not assigned');
    } finally {
      await close();
    }
  });

  it('axe checked every page state each role reached', () => {
    expect(reached.size).toBeGreaterThan(6);
    expect([...reached].filter((st) => !checked.has(st))).toEqual([]);
  });
});
