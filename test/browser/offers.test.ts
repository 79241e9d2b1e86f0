/**
 * Offers and placements in a real browser (Debian's Chromium against the worker's shared `npm
 * start`, in a workspace of its own), from the keyboard alone: a recruiter drafts an offer on the
 * candidate's page and asks for approval, changes the terms (a second version, compared with the
 * first), the approver named in the chain finds it under Approvals (the header counts it) and
 * approves it with a comment, then the requisition's hiring manager, the chain's second step, reads
 * it on the candidate's page and approves it from Approvals; the recruiter sends it and records the acceptance, moves the
 * candidate to Placed, and the placement appears under the requisition and on the Placements page
 * with its CSV. Every state is checked with axe and no console error.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { browserSuite, loginOf } from '../helpers/browser-suite';

const b = browserSuite('offers');
const { check, press } = b;
const NAME = 'Grace Offerman';
let candidateId: string;
let reqId: string;

type SelectLike = { selectedOptions: ArrayLike<{ textContent: string | null }>; options: ArrayLike<{ textContent: string | null }> };
/** Choose an option with the arrow keys, as a keyboard user does. */
async function choose(select: Locator, label: string) {
  await select.focus();
  const selected = () => select.evaluate((s: SelectLike) => s.selectedOptions[0]?.textContent ?? '');
  const options = await select.evaluate((s: SelectLike) => Array.from(s.options, (o) => o.textContent ?? ''));
  const want = options.indexOf(label);
  expect(want, `option ${label} in ${options.join(', ')}`).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < options.length && (await selected()) !== label; i++) {
    const at = options.indexOf(await selected());
    await select.press(at < want ? 'ArrowDown' : 'ArrowUp');
  }
  expect(await selected()).toBe(label);
}
/** A date field typed as its segments are (month, day, year in Chromium's en-US). */
async function typeDate(field: Locator, iso: string) {
  const [y, m, d] = iso.split('-');
  await field.focus();
  await field.press(`${m![0]}`);
  await field.page().keyboard.type(`${m![1]}${d}${y}`);
  expect(await field.inputValue()).toBe(iso);
}
const offers = (page: Page) => page.getByRole('region', { name: 'Offers' });
const status = (page: Page) => offers(page).getByRole('status');

describe('an offer from draft to placement', { timeout: 180_000 }, () => {
  it('a recruiter drafts an offer from the candidate page', async () => {
    const { page, origin, workspace } = b;
    const headers = { Origin: origin };
    // The chain: the admin approves, then the requisition's hiring manager.
    await b.signIn();
    const chain = await page.request.put('/api/settings/offer-approvals', {
      data: {
        steps: [
          { approvers: [workspace.members.admin!.id], mode: 'any' },
          { approvers: [workspace.members.hiring_manager!.id], mode: 'any' },
        ],
      },
      headers,
    });
    expect(chain.status(), await chain.text()).toBe(200);
    const req = await page.request.post('/api/requisitions', {
      data: { title: 'Offer Flow Engineer', headcount: 1, hiring_manager_ids: [workspace.members.hiring_manager!.id] },
      headers,
    });
    expect(req.status(), await req.text()).toBe(201);
    reqId = (await req.json()).data.id;
    const made = await page.request.post('/api/candidates', {
      data: { name: NAME, email: b.email('grace'), req_id: reqId, stage: 'interviewed' },
      headers,
    });
    expect(made.status(), await made.text()).toBe(201);
    candidateId = (await made.json()).data.id;
    await page.request.delete('/api/session', { headers });

    await b.signIn(loginOf(workspace.members.recruiter!));
    await page.goto(`/candidates/${candidateId}`);
    await offers(page).getByText('No offer yet.').waitFor();
    await check('profile: no offer');

    await press(offers(page).getByRole('button', { name: 'Draft an offer' }));
    const form = offers(page).getByRole('form', { name: 'Draft an offer' });
    await b.typeInto(form.getByLabel('Amount'), '65000');
    await choose(form.getByLabel('Period'), 'a year');
    await typeDate(form.getByLabel('Start date'), '2027-03-01');
    await typeDate(form.getByLabel(/^Expires at the end of/), '2027-02-15');
    await choose(form.getByLabel(/^Employment type/), 'Direct hire');
    await b.typeInto(form.getByLabel(/^Location/), 'Lisbon');
    await b.typeInto(form.getByLabel(/^Note/), 'Hybrid, three days in the office.');
    await check('profile: offer form');
    await press(form.getByRole('button', { name: 'Save the draft' }));
    await status(page).filter({ hasText: 'Offer drafted.' }).waitFor();
    await offers(page).getByText('Draft', { exact: true }).waitFor();
    expect(await offers(page).textContent()).toContain('65,000');
    // The chain is shown before approval is asked: its step not reached yet.
    await offers(page).getByText('Step 1: Not reached yet').waitFor();
    await check('profile: a draft offer');
  });

  it('asks for approval, then changes the terms: a second version, compared with the first', async () => {
    const { page } = b;
    await press(offers(page).getByRole('button', { name: 'Request approval' }));
    await status(page).filter({ hasText: 'The offer is now pending approval.' }).waitFor();
    await offers(page).getByText('Step 1: Waiting').waitFor();
    // Only the approver decides: the recruiter has no Approve here.
    expect(await offers(page).getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await check('profile: pending approval');

    await press(offers(page).getByRole('button', { name: 'Change the terms' }));
    const form = offers(page).getByRole('form', { name: 'Change the terms' });
    await b.typeInto(form.getByLabel('Amount'), '70000');
    await press(form.getByRole('button', { name: 'Save the terms' }));
    await status(page).filter({ hasText: 'The terms are saved.' }).waitFor();
    await offers(page)
      .getByRole('heading', { name: /Offer, version 2/ })
      .waitFor();
    const compare = offers(page).getByRole('button', { name: 'Compare version 2 with version 1' });
    await press(compare);
    expect(await compare.getAttribute('aria-expanded')).toBe('true');
    const diff = offers(page).getByRole('table', { name: 'Changed from version 1 to version 2' });
    const rows = diff.getByRole('row');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    const changed = await rows.nth(1).textContent();
    expect(changed).toContain('Compensation');
    expect(changed).toContain('65,000');
    expect(changed).toContain('70,000');
    await check('profile: versions compared');
  });

  it('the approver finds it under Approvals, counted in the header, and approves it with a comment', async () => {
    const { page: approver, errors } = await b.openPage();
    expect((await approver.request.post('/api/session', { data: b.admin })).status()).toBe(200);
    await approver.goto('/');
    const link = approver.getByRole('link', { name: /^Approvals/ });
    // Waited for as the page's locators wait (its default timeout), not expect.poll's one second:
    // the count arrives with a request of its own after the page.
    await link.filter({ hasText: '1 waiting' }).waitFor();
    await b.check('overview: the header counts the offer waiting', approver, errors);
    await press(link);
    await approver.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    const item = approver.getByRole('listitem').filter({ has: approver.getByRole('link', { name: NAME }) });
    await item.waitFor();
    expect(await item.textContent()).toContain('70,000');
    await b.check('approvals: one waiting', approver, errors);
    await item.getByLabel(/^Comment/).focus();
    await approver.keyboard.type('Within the band.');
    await press(item.getByRole('button', { name: 'Approve' }));
    await approver
      .getByRole('status')
      .filter({ hasText: `You approved the offer to ${NAME}.` })
      .waitFor();
    await approver.getByText('No offer waits for your decision.').waitFor();
    await link.locator('.badge').waitFor({ state: 'detached' });
    await b.check('approvals: none waiting', approver, errors);
  });

  it('the hiring manager named in the chain sees the offer on the candidate page and under Approvals, and approves it by keyboard', async () => {
    const { page: manager, errors } = await b.openPage();
    expect((await manager.request.post('/api/session', { data: loginOf(b.workspace.members.hiring_manager!) })).status()).toBe(200);
    await manager.goto('/');
    const link = manager.getByRole('link', { name: /^Approvals/ });
    // Waited for as the page's locators wait (its default timeout), not expect.poll's one second:
    // the count arrives with a request of its own after the page.
    await link.filter({ hasText: '1 waiting' }).waitFor();
    await b.check('overview: the hiring manager is waited for', manager, errors);
    await press(link);
    await manager.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    const item = manager.getByRole('listitem').filter({ has: manager.getByRole('link', { name: NAME }) });
    await item.waitFor();
    expect(await item.textContent()).toContain('waiting at step 2');
    await b.check('approvals: the hiring manager, one waiting', manager, errors);
    // The offer on the candidate's page: the chain, the admin's approval, their own step waiting.
    await press(item.getByRole('link', { name: NAME }));
    await offers(manager).getByText('Step 2: Waiting').waitFor();
    await offers(manager).getByText('Step 1: Approved').waitFor();
    await b.check('profile: the hiring manager reads the offer', manager, errors);
    await press(link);
    const again = manager.getByRole('listitem').filter({ has: manager.getByRole('link', { name: NAME }) });
    await again.getByLabel(/^Comment/).focus();
    await manager.keyboard.type('The team agrees.');
    await press(again.getByRole('button', { name: 'Approve' }));
    await manager
      .getByRole('status')
      .filter({ hasText: `You approved the offer to ${NAME}.` })
      .waitFor();
    await manager.getByText('No offer waits for your decision.').waitFor();
    await link.locator('.badge').waitFor({ state: 'detached' });
    await b.check('approvals: the hiring manager, none waiting', manager, errors);
  });

  it('the recruiter sends it and records the acceptance; the candidate follows', async () => {
    const { page } = b;
    await page.reload();
    await offers(page).getByText('Step 1: Approved').waitFor();
    expect(await offers(page).textContent()).toContain('Within the band.');
    await check('profile: approved');
    await press(offers(page).getByRole('button', { name: 'Send the offer' }));
    await status(page).filter({ hasText: 'The offer is now sent.' }).waitFor();
    await check('profile: sent');
    await press(offers(page).getByRole('button', { name: 'Record accepted' }));
    await status(page).filter({ hasText: 'The offer is now accepted.' }).waitFor();
    // The profile reads the candidate again after the change: waited for as the page's locators wait.
    await page
      .locator('.facts')
      .filter({ hasText: /Now in\s*Offer accepted/ })
      .waitFor();
    await check('profile: accepted');
  });

  it('moves them to Placed; the placement appears under the requisition and in the exportable list', async () => {
    const { page } = b;
    await choose(page.getByLabel(/^Move to/), 'Placed');
    await press(page.getByRole('button', { name: `Move ${NAME}` }));
    await page.getByRole('status').filter({ hasText: 'Moved to Placed.' }).waitFor();

    await page.goto(`/requisitions/${reqId}`);
    const section = page.getByRole('region', { name: 'Placements', exact: true });
    const row = section.getByRole('row').filter({ hasText: NAME });
    await row.waitFor();
    expect(await row.textContent()).toContain('70,000');
    expect(await row.textContent()).toContain('2027-03-01');
    await check('requisition: its placements');

    await press(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Placements' }));
    await page.getByRole('heading', { level: 1, name: 'Placements' }).waitFor();
    const listed = page.getByRole('row').filter({ hasText: NAME });
    await listed.waitFor();
    expect(await listed.textContent()).toContain('Offer Flow Engineer');
    const exportLink = page.getByRole('link', { name: /^Export the \d+ loaded as CSV$/ });
    const href = decodeURIComponent((await exportLink.getAttribute('href'))!.replace(/^data:text\/csv;charset=utf-8,/, ''));
    const line = href.split('\r\n').find((l) => l.startsWith(NAME));
    expect(line).toContain('Offer Flow Engineer,active,2027-03-01,,70000,EUR,year,direct_hire,Lisbon,');
    await check('placements: the list');
    b.everyStateChecked();
  });
});
