/**
 * The pages a hiring team works in, in Debian's Chromium against the real local stack: the
 * candidate's read view (contact, job, actions, the edit form on demand), rejecting with a reason,
 * the candidates list's sorting, rejected filter and bulk move with per-row results, and the
 * settings menu. A 1280 px screen, and a 375 px phone that must never scroll sideways. Every page
 * state reached is checked with axe; the last test proves none was missed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browser-suite';

const b = browserSuite('profile', { context: { viewport: { width: 1280, height: 900 } } });
const { check, press } = b;
let page: Page;
let errors: string[];
let phone: Page;
/** The candidates this file adds, by name. */
const ids: Record<string, string> = {};
let reqId: string;

beforeAll(async () => {
  ({ page, errors } = b);
  await b.signIn();
  ({ page: phone } = await b.openPage({
    viewport: { width: 375, height: 800 },
    isMobile: true,
    hasTouch: true,
    storageState: await b.context.storageState(),
  }));

  const reqs = (await (await page.request.get('/api/requisitions')).json()).data as { id: string; title: string }[];
  reqId = reqs.find((r) => r.title === 'Senior Backend Engineer')!.id;
  for (const [name, email] of [
    ['Hedy Lamarr', 'hedy@example.com'],
    ['Joan Clarke', 'joan@example.com'],
    ['Klara Dan', 'klara@example.com'],
  ] as const) {
    const res = await page.request.post('/api/candidates', {
      data: {
        name,
        email,
        phone: '+49 30 1234567',
        resume_url: `https://cv.example.com/${name.split(' ')[0]}`,
        req_id: reqId,
        stage: 'applied',
      },
    });
    expect(res.status()).toBe(201);
    ids[name] = (await res.json()).data.id;
  }
}, 60_000);

const heading = (name: string | RegExp, on: Page = page) => on.getByRole('heading', { level: 1, name });
const activeText = (on: Page = page) => on.evaluate('document.activeElement && document.activeElement.textContent');
const activeId = () => page.evaluate('document.activeElement.id');
const noSidewaysScroll = async (on: Page) => expect(await on.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
const rowNames = async () => page.getByRole('table').locator('tbody tr td[data-label="Name"]').allTextContents();

describe('the profile a team works in', { timeout: 60_000 }, () => {
  it('is a read view: contact links, the job with its stage, and the actions', async () => {
    await page.goto(`/candidates/${ids['Hedy Lamarr']}`);
    await heading('Hedy Lamarr').waitFor();
    expect(await page.getByRole('link', { name: 'hedy@example.com' }).getAttribute('href')).toBe('mailto:hedy@example.com');
    expect(await page.getByRole('link', { name: '+49 30 1234567' }).getAttribute('href')).toBe('tel:+49301234567');
    const resume = page.getByRole('link', { name: /Open the resume/ });
    expect(await resume.getAttribute('href')).toBe('https://cv.example.com/Hedy');
    expect(await resume.getAttribute('target')).toBe('_blank');
    expect(await resume.getAttribute('rel')).toContain('noopener');
    await page.locator('.facts').getByRole('link', { name: 'Senior Backend Engineer' }).waitFor();
    await expect.poll(() => page.locator('.facts').filter({ hasText: 'Now in' }).textContent()).toMatch(/Now in\s*Applied/);
    // No form until Edit: the profile's fields are not on the page; the one text box is the notes
    // section's new note.
    await page.getByRole('textbox', { name: 'New note' }).waitFor();
    expect(await page.getByRole('textbox').evaluateAll((boxes) => boxes.map((b) => b.id))).toEqual(['note-body']);
    for (const name of ['Edit profile', 'Reject…', 'Add to another job…', 'Move to another job…'])
      await page.getByRole('button', { name }).waitFor();
    await check('candidate (read view)');
  });

  it('Edit opens the form with focus in it; Escape closes it and focus returns; a save shows in the header', async () => {
    const edit = page.getByRole('button', { name: 'Edit profile' });
    await press(edit);
    expect(await edit.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(activeId).toBe('profile-name');
    await check('candidate (edit form)');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByLabel('Email').count()).toBe(0);
    expect(await activeText()).toBe('Edit profile');

    await press(edit);
    // Open, as its user sees it: focus in its first field, which typing elsewhere must not race.
    await expect.poll(activeId).toBe('profile-name');
    const phoneField = page.getByLabel('Phone');
    await phoneField.fill('+49 30 7654321');
    await phoneField.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Profile saved.' }).waitFor();
    await page.getByRole('link', { name: '+49 30 7654321' }).waitFor();
    await expect.poll(() => activeText()).toBe('Edit profile');
    expect(errors).toEqual([]);
  });

  it('rejects with a reason from the workspace list; the header and the history show it', async () => {
    await press(page.getByRole('button', { name: 'Reject…' }));
    const dialog = page.getByRole('dialog', { name: 'Reject Hedy Lamarr' });
    await dialog.waitFor();
    // Without a reason nothing is sent: the console always asks why.
    await press(dialog.getByRole('button', { name: 'Reject', exact: true }));
    await dialog.getByText('Choose a reason for the rejection.').waitFor();
    await check('candidate: reject dialog');
    const reason = dialog.getByLabel(/^Reason/);
    await reason.locator('option', { hasText: 'Accepted another offer' }).waitFor({ state: 'attached' });
    await reason.selectOption('accepted_other_offer');
    await dialog.getByLabel(/^Note/).fill('Took a role near home');
    await press(dialog.getByRole('button', { name: 'Reject', exact: true }));
    await page.getByRole('status').filter({ hasText: 'Hedy Lamarr was rejected.' }).waitFor();
    await expect.poll(() => page.locator('.facts').filter({ hasText: 'Now in' }).textContent()).toMatch(/Rejected.*Accepted another offer/);
    const newest = page
      .getByRole('list')
      .filter({ has: page.getByRole('heading', { level: 3 }) })
      .getByRole('listitem')
      .first();
    await expect.poll(() => newest.textContent()).toContain('ReasonAccepted another offer (candidate withdrew)');
    expect(await newest.textContent()).not.toContain('near home');
    const api = (await (await page.request.get(`/api/candidates/${ids['Hedy Lamarr']}`)).json()).data;
    expect(api.stage).toBe('rejected');
    expect(api.rejection.reason_id).toBe('accepted_other_offer');
    await check('candidate: rejected');
  });

  it('moves the candidate to another job, and adds the person to another one', async () => {
    await page.goto(`/candidates/${ids['Joan Clarke']}`);
    await heading('Joan Clarke').waitFor();
    await press(page.getByRole('button', { name: 'Move to another job…' }));
    const move = page.getByRole('dialog', { name: 'Move Joan Clarke to another job' });
    await move.getByLabel('Requisition').locator('option', { hasText: 'Data Analyst' }).waitFor({ state: 'attached' });
    await check('candidate: move to another job');
    await move.getByLabel('Requisition').selectOption({ label: 'Data Analyst' });
    await press(move.getByRole('button', { name: 'Move to job' }));
    await page.getByRole('status').filter({ hasText: 'Moved to Data Analyst, still in Applied.' }).waitFor();
    await page.locator('.facts').getByRole('link', { name: 'Data Analyst' }).waitFor();

    await press(page.getByRole('button', { name: 'Add to another job…' }));
    const add = page.getByRole('dialog', { name: 'Add Joan Clarke to another job' });
    await add.getByLabel('Requisition').locator('option', { hasText: 'Product Designer' }).waitFor({ state: 'attached' });
    await check('candidate: add to another job');
    await add.getByLabel('Requisition').selectOption({ label: 'Product Designer' });
    await press(add.getByRole('button', { name: 'Add to job' }));
    await page.getByRole('status').filter({ hasText: 'Joan Clarke was added to Product Designer in Applied.' }).waitFor();
    const list = (await (await page.request.get('/api/candidates?q=joan')).json()).data as { req_title: string; person_id: string }[];
    expect(list.map((c) => c.req_title).sort()).toEqual(['Data Analyst', 'Product Designer']);
    // One person in two jobs: the header lists both, each with its stage and a link.
    expect(new Set(list.map((c) => c.person_id)).size).toBe(1);
    const jobs = page.getByRole('region', { name: 'Every job they are in' });
    await expect
      .poll(() => jobs.getByRole('listitem').allTextContents())
      .toEqual(['Data Analyst: Applied (this page)', 'Product Designer: Applied']);
    await jobs.getByRole('link', { name: 'Product Designer' }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('the candidates list', { timeout: 60_000 }, () => {
  it('sorts by name, says what is sorted, and shows the rejected behind a filter with their reason', async () => {
    await page.goto('/candidates');
    await heading('Candidates').waitFor();
    await page.getByRole('link', { name: 'Klara Dan' }).waitFor();
    await press(page.getByRole('button', { name: /^Name/ }));
    await page.getByText(/Sorted by name, A to Z: the \d+ rows loaded\./).waitFor();
    const names = await rowNames();
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(await page.getByRole('columnheader', { name: /^Name/ }).getAttribute('aria-sort')).toBe('ascending');
    await check('candidates (sorted)');

    await page.getByRole('search', { name: 'Find candidates' }).getByLabel('Stage').selectOption('rejected');
    await expect.poll(() => new URL(page.url()).searchParams.get('stage')).toBe('rejected');
    await page.getByRole('link', { name: 'Hedy Lamarr' }).waitFor();
    await page.getByRole('link', { name: 'Ken Thompson' }).waitFor(); // the demo's rejected one
    await page.getByLabel('Rejection reason').locator('option', { hasText: 'Accepted another offer' }).waitFor({ state: 'attached' });
    await page.getByLabel('Rejection reason').selectOption('accepted_other_offer');
    await expect.poll(() => rowNames()).toEqual(['Hedy Lamarr']);
    await page.getByText(/1 rejected for “Accepted another offer” among the 2 loaded\./).waitFor();
    await check('candidates (rejected, by reason)');
  });

  it('moves a selection in bulk with a progress bar and a result per candidate, one of them refused', async () => {
    await page.goto('/candidates');
    await page.getByRole('link', { name: 'Klara Dan' }).waitFor();
    await page.getByRole('checkbox', { name: 'Select Klara Dan' }).check();
    await page.getByRole('checkbox', { name: 'Select Alan Turing' }).check();
    await page.getByText('2 selected.').waitFor();
    // Someone else moves Alan first: his move is refused, Klara's goes through.
    const alan = (await (await page.request.get('/api/candidates?q=alan')).json()).data[0] as { id: string };
    expect((await page.request.post('/api/pipeline', { data: { candidate_id: alan.id, stage: 'interviewed' } })).status()).toBe(200);
    await page.getByLabel('Move the selected to').selectOption('interview_scheduled');
    await check('candidates (2 selected)');
    await press(page.getByRole('button', { name: 'Move 2' }));
    await page.getByText(/Moving to Interview scheduled: 2 of 2 done, 1 succeeded, 1 failed\./).waitFor();
    expect(await page.locator('#bulk-progress').getAttribute('value')).toBe('2');
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Alan Turing: someone else moved them first: they are now in Interviewed' })
      .first()
      .waitFor();
    const klara = (await (await page.request.get(`/api/candidates/${ids['Klara Dan']}`)).json()).data;
    expect(klara.stage).toBe('interview_scheduled');
    // What failed stays selected; what moved does not.
    await expect.poll(() => page.getByRole('checkbox', { name: 'Select Alan Turing' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Select Klara Dan' }).isChecked()).toBe(false);
    const csv = decodeURIComponent(
      (await page.getByRole('link', { name: 'Export 1 as CSV' }).getAttribute('href'))!.split(',').slice(1).join(','),
    );
    expect(csv.split('\r\n')[0]).toBe('Name,Email,Stage,Rejection reason,Requisition,Last change');
    expect(csv).toContain('Alan Turing');
    await check('candidates (bulk results)');
  });
});

describe('at 375 px and in the settings', { timeout: 60_000 }, () => {
  it('the profile and its edit form never scroll sideways at 375 px', async () => {
    await phone.goto(`/candidates/${ids['Klara Dan']}`);
    await heading('Klara Dan', phone).waitFor();
    await noSidewaysScroll(phone);
    await check('candidate (375 px)', phone);
    await press(phone.getByRole('button', { name: 'Edit profile' }));
    await phone.getByLabel('Resume URL').waitFor();
    await noSidewaysScroll(phone);
    await check('candidate (edit form, 375 px)', phone);
  });

  it('the candidates list with a selection and the board never scroll sideways at 375 px', async () => {
    await phone.goto('/candidates');
    await phone.getByRole('checkbox', { name: 'Select Klara Dan' }).check();
    await phone.getByText('1 selected.').waitFor();
    await noSidewaysScroll(phone);
    await check('candidates (selection, 375 px)', phone);
    await phone.goto(`/requisitions/${reqId}`);
    await phone.getByRole('heading', { level: 3, name: /^Applied \d+$/ }).waitFor();
    await noSidewaysScroll(phone);
    await check('requisition board (375 px)', phone);
  });

  it('the settings pages sit under Settings, with their own menu', async () => {
    await page.goto('/');
    await heading('Overview').waitFor();
    await check('overview');
    const main = page.getByRole('navigation', { name: 'Main' });
    expect(await main.getByRole('link').allTextContents()).toEqual([
      'Overview',
      'Candidates',
      'Requisitions',
      'Placements',
      'My interviews',
      'Settings',
      'Account',
    ]);
    await press(main.getByRole('link', { name: 'Settings' }));
    await heading('API tokens').waitFor();
    const menu = page.getByRole('navigation', { name: 'Settings' });
    expect(await menu.getByRole('link').allTextContents()).toEqual([
      'API tokens',
      'Webhooks',
      'Members',
      'Pipeline',
      'Security',
      'Careers site',
      'Audit log',
      'API docs',
    ]);
    expect(await main.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('true');
    expect(await menu.getByRole('link', { name: 'API tokens' }).getAttribute('aria-current')).toBe('page');
    await check('settings (tokens)');
  });

  it('axe checked every page state the tests reached (each route, each dialog)', () => {
    b.everyStateChecked();
  });
});
