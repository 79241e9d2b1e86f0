/**
 * Interviews in a real browser (Debian's Chromium against the worker's shared `npm start`, in a
 * workspace of its own), from the keyboard: an interviewer signs in and lands on "My interviews",
 * reads the interview there and submits a scorecard; a recruiter on the same panel reads the
 * step's kit and rates its attributes and answers its questions; a recruiter schedules a panel
 * from the candidate's page, meets a conflict naming the interviewer and books anyway; feedback
 * overdue is said in words, and the board counts scorecards; a member sets their own time zone,
 * and the schedule form shows it and previews each invitation. Every state
 * is checked with axe (no serious or critical violation) and no console error.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, loginOf, type Login } from '../helpers/browser-suite';
import { whenText } from '../../lib/domain/interview-invitation-text';
import { span } from '../../console/src/zones';

const b = browserSuite('interviews');
const { check, press } = b;

const KIT = '## Prepare\nRead the take-home first.\n\n- Ask about <script>alert(1)</script> escaping';
/** `start`: the first interview's, which the schedule test books over (an hour from now taken again could be the next one). */
const fixture = { req: '', step: '', candidate: '', name: 'Imogen Panel', interview: '', start: new Date(0) };

/** The workspace token's call to the API (`/api/v1…`). */
async function v1(method: string, path: string, body?: unknown) {
  const res = await fetch(`${b.runtime.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${b.workspace.token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

/** The next whole hour after `hours` from now, as an instant. */
const hourFromNow = (hours: number) => {
  const d = new Date(Date.now() + hours * 3_600_000);
  d.setUTCMinutes(0, 0, 0);
  return d;
};

/** A sign-in through the page, typed: where it lands is the point. */
async function signInByKeyboard(page: Page, who: Login, checkHere: (label: string) => Promise<void>) {
  await page.goto('/signin');
  await page.getByLabel('Email').waitFor();
  await checkHere(`sign-in (${who.email})`);
  await page.getByLabel('Email').focus();
  await page.keyboard.type(who.email);
  await page.getByLabel('Password', { exact: true }).focus();
  await page.keyboard.type(who.password);
  await page.keyboard.press('Enter');
}

describe('interviews in the console', { timeout: 240_000 }, () => {
  it('an interviewer lands on My interviews and submits a scorecard; a recruiter on the panel reads the kit and rates', async () => {
    const { interviewer, recruiter } = b.workspace.members as Record<string, { id: string; email: string; password: string }>;
    const req = await v1('POST', '/requisitions', { title: 'Interview Loop Engineer' });
    expect(req.status, req.text).toBe(201);
    fixture.req = req.body.data.id;
    const plan = await v1('PUT', `/requisitions/${fixture.req}/interview-plan`, {
      steps: [
        {
          name: 'Technical interview',
          stage: 'interview_scheduled',
          duration_minutes: 60,
          interviewers: [interviewer!.id, recruiter!.id],
          kit: KIT,
          scorecard: { attributes: [{ name: 'System design' }, { name: 'Communication' }], questions: ['What would you probe next?'] },
        },
      ],
    });
    expect(plan.status, plan.text).toBe(200);
    fixture.step = plan.body.data.steps[0].id;
    const c = await v1('POST', '/candidates', { name: fixture.name, email: 'imogen.panel@example.org', req_id: fixture.req });
    expect(c.status, c.text).toBe(201);
    fixture.candidate = c.body.data.id;
    const start = (fixture.start = hourFromNow(2));
    const iv = await v1('POST', `/candidates/${fixture.candidate}/interviews`, {
      step_id: fixture.step,
      start: start.toISOString(),
      end: new Date(start.getTime() + 3_600_000).toISOString(),
      time_zone: 'Asia/Tokyo',
      location: 'https://meet.example.com/imogen',
    });
    expect(iv.status, iv.text).toBe(201);
    fixture.interview = iv.body.data.id;

    // The interviewer: sign-in lands on My interviews.
    const { page } = b;
    await signInByKeyboard(page, loginOf(interviewer!), (label) => check(label));
    await page.getByRole('heading', { level: 1, name: 'My interviews' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/interviews');
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `${fixture.name}: Technical interview` }) });
    await item.waitFor();
    expect(await item.getByRole('link', { name: `Open ${fixture.name}'s profile` }).getAttribute('href')).toBe(
      `/candidates/${fixture.candidate}`,
    );
    expect(await item.getByRole('link', { name: 'https://meet.example.com/imogen' }).count()).toBe(1);
    // The kit comes with the interview's own read: an interviewer, who does not read plans, has it.
    await item.getByText('Read the take-home first.').waitFor();
    expect(await item.locator('.kit-text').textContent()).toBe(KIT);
    // Scheduled in Tokyo's time: shown in the viewer's zone, and in Tokyo's beside it.
    await item.getByText('in Asia/Tokyo').waitFor();
    await check('my interviews (interviewer)');

    await press(item.getByRole('button', { name: `Give feedback on ${fixture.name}: Technical interview` }));
    const overall = item.getByLabel('Overall recommendation');
    await overall.waitFor();
    expect(await overall.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await check('scorecard form (interviewer)');
    // Sent without a recommendation: the form says what is missing and sends nothing.
    await press(item.getByRole('button', { name: 'Submit scorecard' }));
    await item.getByRole('alert').filter({ hasText: 'Choose an overall recommendation.' }).waitFor();
    await check('scorecard form: recommendation missing');
    await overall.focus();
    await overall.selectOption({ label: 'Yes' });
    await item.getByLabel('Note (optional)').focus();
    await page.keyboard.type('Clear thinker; a little quiet on trade-offs.');
    await press(item.getByRole('button', { name: 'Submit scorecard' }));
    await item.getByText('Scorecard submitted: Yes (version 1).').waitFor();
    const again = item.getByRole('button', { name: `Edit your feedback on ${fixture.name}: Technical interview` });
    expect(await again.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await check('scorecard submitted (interviewer)');

    // The recruiter on the same panel reads the kit (as text: nothing in it runs) and rates.
    const other = await b.openPage();
    try {
      const rp = other.page;
      const checkHere = (label: string) => check(label, rp, other.errors);
      await signInByKeyboard(rp, loginOf(recruiter!), checkHere);
      // Everyone but an interviewer lands where they did before: the overview.
      await rp.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      await checkHere('overview (recruiter)');
      await press(rp.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My interviews' }));
      const card = rp.getByRole('listitem').filter({ has: rp.getByRole('heading', { name: `${fixture.name}: Technical interview` }) });
      await card.getByText('Read the take-home first.').waitFor();
      expect(await card.locator('.kit-text').textContent()).toBe(KIT);
      expect(await card.locator('.kit-text script').count()).toBe(0);
      await checkHere('my interviews (recruiter, with the kit)');
      await press(card.getByRole('button', { name: `Give feedback on ${fixture.name}: Technical interview` }));
      const form = card.getByRole('form', { name: 'Your scorecard' });
      await form.waitFor();
      await form.getByLabel('Overall recommendation').selectOption({ label: 'Strong yes' });
      await form.getByLabel('System design').focus();
      await form.getByLabel('System design').selectOption({ label: 'Strong yes' });
      await form.getByLabel('Communication').focus();
      await form.getByLabel('Communication').selectOption({ label: 'Yes' });
      await form.getByLabel('What would you probe next?').focus();
      await rp.keyboard.type('Scaling the queue consumer.');
      await checkHere('scorecard form with the template (recruiter)');
      await press(form.getByRole('button', { name: 'Submit scorecard' }));
      await card.getByText('Scorecard submitted: Strong yes (version 1).').waitFor();
      await checkHere('scorecard submitted (recruiter)');
    } finally {
      await other.context.close();
    }

    const cards = await v1('GET', `/candidates/${fixture.candidate}/scorecards`);
    expect(cards.status, cards.text).toBe(200);
    const byWho = Object.fromEntries((cards.body.data as { interviewer_id: string }[]).map((s) => [s.interviewer_id, s]));
    expect(byWho[interviewer!.id]).toMatchObject({ overall: 'yes', ratings: [], note: 'Clear thinker; a little quiet on trade-offs.' });
    expect(byWho[recruiter!.id]).toMatchObject({
      overall: 'strong_yes',
      ratings: [
        { attribute: 'System design', rating: 'strong_yes' },
        { attribute: 'Communication', rating: 'yes' },
      ],
      answers: [{ question: 'What would you probe next?', answer: 'Scaling the queue consumer.' }],
      note: null,
    });
  });

  it('a recruiter schedules a panel from the candidate page: plan defaults, a zone, a conflict named, booked anyway', async () => {
    const { interviewer, recruiter, hiring_manager } = b.workspace.members as Record<
      string,
      { id: string; email: string; password: string }
    >;
    const { page } = b;
    await b.signIn(loginOf(recruiter!));
    await page.goto(`/candidates/${fixture.candidate}`);
    const section = page.getByRole('region', { name: 'Interviews' });
    await section.getByRole('heading', { level: 3, name: 'Technical interview' }).waitFor();
    // Both scorecards are in, and this recruiter reads them all: the count of each recommendation, then each.
    await section.getByText('2 of 2 scorecards').waitFor();
    const tally = section.getByRole('list', { name: 'Recommendations' });
    expect(await tally.getByRole('listitem').allTextContents()).toEqual([
      'Strong yes: 1',
      'Yes: 1',
      'No: 0',
      'Strong no: 0',
      'No decision: 0',
    ]);
    await section.getByText('Scaling the queue consumer.').waitFor();
    await check('candidate interviews and scorecards');

    await press(section.getByRole('button', { name: 'Schedule an interview' }));
    const dialog = page.getByRole('dialog', { name: `Schedule an interview with ${fixture.name}` });
    await dialog.waitFor();
    // The step's defaults: its duration and its interviewers; the viewer's own zone.
    expect(await dialog.getByLabel('Duration in minutes').inputValue()).toBe('60');
    expect(await dialog.getByRole('checkbox', { name: interviewer!.email }).isChecked()).toBe(true);
    expect(await dialog.getByRole('checkbox', { name: recruiter!.email }).isChecked()).toBe(true);
    expect(await dialog.getByRole('checkbox', { name: hiring_manager!.email }).isChecked()).toBe(false);
    const ownZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await dialog.getByLabel('Time zone').inputValue()).toBe(ownZone);
    await check('schedule dialog');

    // The same hour as the first interview, written as New York's wall clock: the interviewer is booked.
    const zone = 'America/New_York';
    const taken = fixture.start;
    const wall = new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .format(taken)
      .replace(' ', 'T');
    await dialog.getByLabel('Time zone').focus();
    await dialog.getByLabel('Time zone').selectOption(zone);
    // A datetime-local field's keyboard entry follows the browser's locale: the value is set as one.
    await dialog.getByLabel('Starts').fill(wall);
    await press(dialog.getByRole('checkbox', { name: hiring_manager!.email }), 'Space');
    await dialog.getByLabel('Where').focus();
    await page.keyboard.type('Room 4');
    await press(dialog.getByRole('button', { name: 'Schedule', exact: true }));
    const alert = dialog.getByRole('alert');
    await alert.getByText(`${interviewer!.email} is already booked then`).waitFor();
    await check('schedule dialog: conflict');
    await press(alert.getByRole('button', { name: 'Book anyway' }));
    await dialog.waitFor({ state: 'hidden' });
    await section
      .getByRole('status')
      .getByText(/^Scheduled Technical interview: /)
      .waitFor();
    expect(await section.getByRole('heading', { level: 3, name: 'Technical interview' }).count()).toBe(2);
    await check('panel scheduled');

    const listed = await v1('GET', `/interviews?candidate=${fixture.candidate}`);
    expect(listed.status, listed.text).toBe(200);
    const made = (listed.body.data as { id: string }[]).find((iv) => iv.id !== fixture.interview);
    expect(made).toMatchObject({
      start: taken.toISOString(),
      end: new Date(taken.getTime() + 3_600_000).toISOString(),
      time_zone: zone,
      interviewers: [interviewer!.id, recruiter!.id, hiring_manager!.id],
      location: 'Room 4',
    });
  });

  it('a member sets their own time zone; the schedule form shows it beside the interviewer and previews each invitation in its reader’s zone', async () => {
    const { interviewer, recruiter } = b.workspace.members as Record<string, { id: string; email: string; password: string }>;
    const { page } = b;
    const theirs = 'Pacific/Auckland';
    await b.signIn(loginOf(interviewer!));
    await page.goto('/account');
    const form = page.getByRole('form', { name: 'Time zone' });
    await form.waitFor();
    await check('account: time zone');
    await form.getByLabel('Your time zone').focus();
    await form.getByLabel('Your time zone').selectOption(theirs);
    await press(form.getByRole('button', { name: 'Save time zone' }));
    await form.getByRole('status').getByText(`Times are now shown in ${theirs}.`).waitFor();
    await check('account: time zone saved');
    // My interviews reads their own zone now, whatever the browser's.
    await press(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My interviews' }));
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `${fixture.name}: Technical interview` }) });
    await item.getByText(`(${theirs})`).first().waitFor();

    await b.signIn(loginOf(recruiter!));
    await page.goto(`/candidates/${fixture.candidate}`);
    const section = page.getByRole('region', { name: 'Interviews' });
    await section.getByRole('button', { name: 'Schedule an interview' }).waitFor();
    await press(section.getByRole('button', { name: 'Schedule an interview' }));
    const dialog = page.getByRole('dialog', { name: `Schedule an interview with ${fixture.name}` });
    await dialog.waitFor();
    const zone = await dialog.getByLabel('Time zone').inputValue();
    const at = hourFromNow(24 * 9);
    const wall = new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .format(at)
      .replace(' ', 'T');
    await dialog.getByLabel('Starts').fill(wall);
    const end = new Date(at.getTime() + 3_600_000).toISOString();
    // The interviewer's own zone beside their name, with the time there.
    await dialog.getByRole('checkbox', { name: interviewer!.email }).waitFor();
    await dialog.getByText(`${span(at.toISOString(), end, theirs)} ${theirs}`).waitFor();
    await press(dialog.getByRole('checkbox', { name: `Send ${fixture.name} an invitation too` }), 'Space');
    await press(dialog.getByText('Preview the invitations (3)'), 'Enter');
    const preview = dialog.locator('.invite-preview');
    const own = preview.getByRole('listitem').filter({ hasText: `To ${interviewer!.email}` });
    await own.getByText(`When: ${whenText(at.toISOString(), end, theirs)}`).waitFor();
    await own.getByText(`Booked as: ${whenText(at.toISOString(), end, zone)}`).waitFor();
    await own.getByText(`Subject: Interview: ${fixture.name} (Technical interview)`).waitFor();
    const cand = preview.getByRole('listitem').filter({ hasText: `To ${fixture.name} (the candidate)` });
    await cand.getByText(`When: ${whenText(at.toISOString(), end, zone)}`).waitFor();
    expect(await cand.textContent()).not.toContain(interviewer!.email);
    await check('schedule dialog: invitation preview');
    // Nothing is booked by previewing.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    const listed = await v1('GET', `/interviews?candidate=${fixture.candidate}`);
    expect((listed.body.data as { start: string }[]).some((iv) => iv.start === at.toISOString())).toBe(false);
  });

  it("a recruiter writes a requisition's interview plan by keyboard; a save over someone else's is refused", async () => {
    const { interviewer } = b.workspace.members as Record<string, { id: string; email: string }>;
    const { page } = b; // the recruiter's session, from the test before
    const req = await v1('POST', '/requisitions', { title: 'Plan Editor Engineer' });
    expect(req.status, req.text).toBe(201);
    const reqId = req.body.data.id as string;
    await page.goto(`/requisitions/${reqId}`);
    const section = page.getByRole('region', { name: 'Interview plan' });
    await section.getByText('No plan yet.').waitFor();
    await check('interview plan, none yet');

    await press(section.getByRole('button', { name: 'Add a step' }));
    const name = section.getByLabel('Name', { exact: true });
    await name.waitFor();
    expect(await name.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.type('Culture interview');
    await section.getByLabel('Stage').focus();
    await section.getByLabel('Stage').selectOption({ label: 'Interview scheduled' });
    await b.typeInto(section.getByLabel('Duration in minutes'), '30');
    await press(section.getByRole('checkbox', { name: interviewer!.email }), 'Space');
    await section.getByLabel('Kit (Markdown) (optional)').focus();
    await page.keyboard.type('Ask about a disagreement.');
    await section.getByLabel('Rated on, one attribute a line (optional)').focus();
    await page.keyboard.type('Ownership\nCandour');
    await section.getByLabel('Questions, one a line (optional)').focus();
    await page.keyboard.type('When did you change your mind?');
    await check('interview plan, a step written');
    await press(section.getByRole('button', { name: 'Save the plan' }));
    await section.getByRole('status').getByText('Interview plan saved (version 1).').waitFor();
    await check('interview plan saved');
    const saved = await v1('GET', `/requisitions/${reqId}/interview-plan`);
    expect(saved.body.data).toMatchObject({
      version: 1,
      steps: [
        {
          name: 'Culture interview',
          stage: 'interview_scheduled',
          duration_minutes: 30,
          interviewers: [interviewer!.id],
          kit: 'Ask about a disagreement.',
          scorecard: { attributes: [{ name: 'Ownership' }, { name: 'Candour' }], questions: ['When did you change your mind?'] },
        },
      ],
    });
    const stepId = saved.body.data.steps[0].id as string;

    // Someone else saves meanwhile: this page's save is refused, and nothing of theirs is lost.
    const theirs = await v1('PUT', `/requisitions/${reqId}/interview-plan`, {
      steps: [{ id: stepId, name: 'Values interview', stage: 'interview_scheduled', duration_minutes: 30 }],
    });
    expect(theirs.status, theirs.text).toBe(200);
    await b.typeInto(section.getByLabel('Duration in minutes'), '40');
    await press(section.getByRole('button', { name: 'Save the plan' }));
    await section.getByRole('alert').getByText('Someone else saved the plan (version 2) since you opened it.', { exact: false }).waitFor();
    await check('interview plan, saved by someone else first');
    expect((await v1('GET', `/requisitions/${reqId}/interview-plan`)).body.data).toMatchObject({
      version: 2,
      steps: [{ id: stepId, name: 'Values interview', duration_minutes: 30 }],
    });
  });

  it('feedback overdue is said in words on the candidate page and in My interviews; the board card counts the scorecards', async () => {
    const { interviewer, recruiter } = b.workspace.members as Record<string, { id: string; email: string }>;
    const { page } = b; // the recruiter's session
    const name = 'Olive Overdue';
    const c = await v1('POST', '/candidates', { name, req_id: fixture.req });
    expect(c.status, c.text).toBe(201);
    // Ten days ago: its reminder time (9:00 the first working day after it) has long passed, whenever this runs.
    const start = hourFromNow(-240);
    const iv = await v1('POST', `/candidates/${c.body.data.id}/interviews`, {
      step_id: fixture.step,
      start: start.toISOString(),
      end: new Date(start.getTime() + 3_600_000).toISOString(),
      time_zone: 'Europe/Berlin',
      interviewers: [interviewer!.id, recruiter!.id],
      allow_conflicts: true,
    });
    expect(iv.status, iv.text).toBe(201);
    expect((await v1('GET', `/interviews/${iv.body.data.id}`)).body.data.feedback_overdue).toBe(true);

    await page.goto(`/candidates/${c.body.data.id}`);
    const section = page.getByRole('region', { name: 'Interviews' });
    await section.getByText('Feedback overdue:').waitFor();
    expect(await section.locator('.overdue').textContent()).toBe('Feedback overdue: a scorecard is still missing after the reminder.');
    await check('candidate interviews: feedback overdue');

    await press(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My interviews' }));
    const overdue = page.getByRole('region', { name: 'Feedback overdue' });
    const item = overdue.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `${name}: Technical interview` }) });
    await item.getByText('Feedback overdue:').waitFor();
    await check('my interviews: feedback overdue (recruiter)');
    await press(item.getByRole('button', { name: `Give feedback on ${name}: Technical interview` }));
    const form = item.getByRole('form', { name: 'Your scorecard' });
    await form.getByLabel('Overall recommendation').selectOption({ label: 'No decision' });
    await press(form.getByRole('button', { name: 'Submit scorecard' }));
    await item.getByText('Scorecard submitted: No decision (version 1).').waitFor();
    await check('my interviews: overdue feedback given (recruiter)');

    // The board: the card says how many of the panel's scorecards are in (counts, never what they say).
    await page.goto(`/requisitions/${fixture.req}`);
    const card = page.locator('.card-item').filter({ has: page.getByRole('link', { name, exact: true }) });
    await card.getByText('1 of 2 scorecards').waitFor();
    await check('board with scorecard counts');
  });

  it('axe checked every page state reached', () => {
    b.everyStateChecked();
  });
});
