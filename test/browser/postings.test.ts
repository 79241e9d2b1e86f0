/**
 * The console's side of applications in a real browser (Debian's Chromium against the worker's
 * shared `npm start`, in a workspace of its own), from the keyboard: a recruiter writes a job
 * posting (the salary it asks for, an API refusal at its field, a question with a knockout rule),
 * publishes it, previews it and unpublishes it; an application to it is screened, and the
 * candidate page shows the answers, the screening's reasons and its Overturn; the candidates list
 * filters by source; the import page maps another tool's export. axe checks each state; a
 * browser console error fails.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FORM_MIN_MS } from '../../lib/domain/form-token';
import { browserSuite, loginOf } from '../helpers/browser-suite';

const b = browserSuite('postings', { context: { viewport: { width: 1280, height: 900 } } });
const { check, press, typeInto } = b;
let page: Page;
let reqId: string;
const TITLE = 'Keyboard Platform Engineer';
/** The public job's form token and when it was read: an application may follow FORM_MIN_MS later. */
let formToken: { token: string; readAt: number };

beforeAll(async () => {
  page = b.page;
  await b.signIn(loginOf(b.workspace.members.recruiter!));
  const made = await page.request.post('/api/requisitions', { data: { title: TITLE, status: 'open' }, headers: { Origin: b.origin } });
  expect(made.status()).toBe(201);
  reqId = (await made.json()).data.id as string;
}, 60_000);

const careersPath = () => `/careers/${b.workspace.slug}/jobs/${reqId}`;
// A string the page evaluates: the project's type check has no DOM library.
const focused = () => page.evaluate<string>("document.activeElement?.id ?? ''");
/**
 * Focus moves once the page has rendered what a key asked for. Polled from here: waitForFunction
 * polls in the page with a string it evaluates there, which the console's CSP (no 'unsafe-eval')
 * refuses, an error the page reports whenever focus has not moved by the first look.
 */
async function focusMovesTo(id: string) {
  await expect.poll(focused).toBe(id);
}

describe('the posting editor', { timeout: 240_000 }, () => {
  it('a recruiter writes, publishes, previews and unpublishes a posting from the keyboard', async () => {
    await page.goto(`/requisitions/${reqId}`);
    await page.getByRole('heading', { level: 2, name: 'Job posting' }).waitFor();
    await page.getByText('No posting yet.').waitFor();
    await check('posting: none yet');

    await page.getByLabel('Description (Markdown)').focus();
    await page.keyboard.type('# The job\n\nYou will keep **pipelines** flowing.');
    // Publishing without a salary range: the console asks for it, at its field.
    await press(page.getByRole('button', { name: 'Publish' }));
    await page.getByText(/Enter the salary range: pay-transparency laws/).waitFor();
    await focusMovesTo('pe-salary-min');
    await check('posting: salary asked for');

    await page.keyboard.type('70000');
    await typeInto(page.getByLabel('To', { exact: true }), '50000');
    // The API's refusal (the range upside down) is shown at the field it names, focus moved there.
    await press(page.getByRole('button', { name: 'Publish' }));
    const maxError = page.locator('#pe-salary-max-error');
    await maxError.waitFor();
    expect(await maxError.textContent()).toBe('salary.max must be at least salary.min');
    await focusMovesTo('pe-salary-max');
    expect(await page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await check('posting: API error at its field');
    await typeInto(page.getByLabel('To', { exact: true }), '90000');

    await press(page.getByRole('button', { name: 'Add a question' }));
    await focusMovesTo('pe-questions-0-label');
    await page.keyboard.type('Are you authorised to work in the EU?');
    await press(page.getByRole('button', { name: 'Add a rule' }));
    await focusMovesTo('pe-rules-0-question_id');
    // The rule reads "fails when the answer to <question> is No" from its first choices.
    expect(await page.locator('#pe-rules-0-op').inputValue()).toBe('eq');
    expect(await page.locator('#pe-rules-0-value').inputValue()).toBe('no');
    await page.getByLabel('The reason in plain words').focus();
    await page.keyboard.type('Not authorised to work in the EU');
    await check('posting: a question and its rule');

    await press(page.getByRole('button', { name: 'Publish' }));
    await page.getByText('Posting saved: it is on the careers page.').waitFor();
    await page.getByText('Published: the job is on the careers page and takes applications.').waitFor();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();
    await check('posting: published');

    const saved = await (await page.request.get(`/api/requisitions/${reqId}/posting`)).json();
    expect(saved.data).toMatchObject({
      published: true,
      listed: true,
      salary: { min: 70000, max: 90000, currency: 'EUR', period: 'year' },
      questions: [{ id: 'are_you_authorised_to_work_in_the_eu', type: 'yes_no', required: true }],
      rules: [{ question_id: 'are_you_authorised_to_work_in_the_eu', op: 'eq', value: false, label: 'Not authorised to work in the EU' }],
      outcome: { on_pass: 'stay', on_fail: 'flag' },
    });
    const job = await page.request.get(`/api/boards/${b.workspace.slug}/jobs/${reqId}`);
    expect(job.status()).toBe(200);
    formToken = { token: (await job.json()).data.form_token, readAt: Date.now() };

    // The preview: the careers page's own rendering, and the real page in a new tab.
    await press(page.getByText('Preview of the careers page'));
    const preview = page.getByRole('article', { name: 'Preview of the job page' });
    await preview.getByRole('heading', { level: 4, name: 'The job' }).waitFor();
    expect(await preview.locator('strong').textContent()).toBe('pipelines');
    const link = page.getByRole('link', { name: /Open the careers page/ });
    expect(await link.getAttribute('href')).toBe(careersPath());
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    const real = await page.request.get(careersPath());
    expect(real.status()).toBe(200);
    expect(await real.text()).toContain('<strong>pipelines</strong>');
    await check('posting: preview');

    await press(page.getByRole('button', { name: 'Unpublish' }));
    await page.getByText('Posting saved: it is not on the careers page.').waitFor();
    await page.getByText('Not published: nobody outside the workspace sees it.').waitFor();
    expect((await page.request.get(careersPath())).status()).toBe(404);
    await check('posting: unpublished');
    await press(page.getByRole('button', { name: 'Publish' }));
    await page.getByText('Posting saved: it is on the careers page.').waitFor();
  });

  it('the candidate page shows an application’s answers and screening, and overturns it in one action', async () => {
    const question = 'are_you_authorised_to_work_in_the_eu';
    // The form token is good only FORM_MIN_MS after its read (the minimum time a person takes).
    const early = formToken.readAt + FORM_MIN_MS - Date.now();
    if (early > 0) await new Promise((r) => setTimeout(r, early));
    const email = b.email('applicant.keyboard');
    const applied = await page.request.post(`/api/boards/${b.workspace.slug}/jobs/${reqId}/applications`, {
      data: {
        name: 'Keyboard Applicant',
        email,
        answers: { [question]: false },
        consent: { accepted: true, text: 'I have read the privacy notice.', version: '2026-11' },
        source: 'meetup',
        form_token: formToken.token,
      },
    });
    expect(applied.status()).toBe(202);
    // The worker makes the candidate from the queue.
    let id = '';
    await expect
      .poll(
        async () => {
          const list = await (await page.request.get(`/api/candidates?req_id=${reqId}`)).json();
          id = list.data[0]?.id ?? '';
          return id;
        },
        { timeout: 60_000 },
      )
      .not.toBe('');

    await page.goto(`/candidates/${id}`);
    const section = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Application' }) });
    await section.waitFor();
    await section.getByText('Failed a rule: flagged for review.').waitFor();
    expect(await section.getByRole('list').textContent()).toContain('Not authorised to work in the EU');
    const answers = section.locator('dl.answers');
    // The answers show once the posting's question labels, a read of their own, have landed.
    await answers.locator('dt').first().waitFor();
    expect(await answers.locator('dt').allTextContents()).toEqual(['Are you authorised to work in the EU?']);
    expect(await answers.locator('dd').allTextContents()).toEqual(['No']);
    expect(await section.textContent()).toContain('I have read the privacy notice.');
    await page.getByText('Careers page, from “meetup”').waitFor();
    await check('candidate: application screened');

    await press(section.getByRole('button', { name: 'Overturn the screening' }));
    await section.getByText('Screening overturned.').waitFor();
    await section.getByText('Overturned by a person.').waitFor();
    expect(await section.getByRole('button', { name: 'Overturn the screening' }).count()).toBe(0);
    await check('candidate: screening overturned');

    // The list by source: the filter is in the URL, and only that source's candidates are listed.
    await page.goto('/candidates');
    await page.getByRole('heading', { level: 1, name: 'Candidates' }).waitFor();
    const source = page.getByLabel('Source');
    await source.focus();
    await source.selectOption('meetup');
    await page.waitForURL(/source=meetup/);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').first().textContent()).toContain('Keyboard Applicant');
    await check('candidates: filtered by source');
  });
});

describe('the import mapping', { timeout: 120_000 }, () => {
  it('maps another tool’s export: names joined, a requisition by title, a stage by label', async () => {
    await page.goto('/candidates/import');
    await page.getByRole('heading', { level: 1, name: 'Import candidates' }).waitFor();
    const template = page.getByRole('link', { name: 'Download a template CSV' });
    expect(await template.getAttribute('download')).toBe('candidates-template.csv');
    expect(decodeURIComponent((await template.getAttribute('href'))!.split(',')[1]!)).toBe('name,email,phone,resume_url,req_id,stage\r\n');

    const csv = `First Name,Last Name,Email Address,Job,Status,Notes\nMapped,One,${b.email('mapped.one')},${TITLE},Interviewed,x\nMapped,Two,${b.email('mapped.two')},No Such Job,Applied,y\n`;
    await page.getByRole('heading', { level: 1 }).click();
    for (let i = 0; i < 40 && (await focused()) !== 'import-file'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('import-file');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles({ name: 'other-tool.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });

    await page.getByRole('heading', { name: 'Map the columns of other-tool.csv' }).waitFor();
    const uses = await page.locator('select[id^="map-use-"]').evaluateAll((s) => s.map((e) => (e as unknown as { value: string }).value));
    expect(uses).toEqual(['first_name', 'last_name', 'email', 'req_title', 'stage_label', '']);
    await check('import: mapping');

    await press(page.getByRole('button', { name: 'Use this mapping' }));
    await page.getByRole('heading', { name: /First rows of other-tool.csv \(mapped\)/ }).waitFor();
    await page.getByText('No requisition has the title “No Such Job” (1 row).').waitFor();
    const preview = page.getByRole('table');
    expect(await preview.locator('thead th').allTextContents()).toEqual(['Row', 'name', 'email', 'req_id', 'stage']);
    expect(await preview.locator('tbody tr').first().locator('td').allTextContents()).toEqual([
      '2',
      'Mapped One',
      b.email('mapped.one'),
      reqId,
      'interviewed',
    ]);
    await check('import: mapped preview');

    await press(page.getByRole('button', { name: 'Check the file' }));
    await page.getByRole('heading', { name: /Check result/ }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'would be imported' }).textContent()).toMatch(
      /1 of 2 rows would be imported; 0 skipped as duplicates, 1 with errors/,
    );
    await check('import: mapped dry run');
  });
});
