/**
 * The application form of a careers job page, without JavaScript: the page carries a real form
 * (fields by question type, consent, the hidden honeypot, the form token, `?src=` carried), and
 * the browser's urlencoded post of it is taken by the application route and answered with a page:
 * a thank-you page, or one naming the field at fault. The queue send is held in the test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkFormToken, FORM_MIN_MS } from '../../lib/domain/form-token';
import { CAREERS_CSP } from '../../lib/careers/page';
import { holdImportQueueSends } from '../helpers/held-import-queue';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let job: string;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  const token = await tenant.token(['*']);
  job = (await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Platform Engineer' } })).body.data.id as string;
  const put = await stack.call('PUT', `/api/v1/requisitions/${job}/posting`, {
    token,
    body: {
      published: true,
      description: 'We build pipelines.',
      remote: 'no',
      questions: [
        { id: 'eu_work', type: 'yes_no', label: 'Are you authorised to work in the EU?', required: true },
        { id: 'years', type: 'number', label: 'Years of TypeScript', required: false },
        { id: 'langs', type: 'multi_choice', label: 'Languages', required: false, options: ['English', 'German', 'French'] },
        { id: 'why', type: 'long_text', label: 'Why us?', required: false },
      ],
      rules: [],
    },
  });
  expect(put.status).toBe(200);
});
afterAll(() => stack.close());
const queued = holdImportQueueSends();
afterEach(() => {
  vi.useRealTimers();
  queued.sent.length = 0;
});

const jobPage = (query = '') => fetch(`${stack.url}/careers/${tenant.slug}/jobs/${job}${query}`);
const hidden = (html: string, name: string) => html.match(new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`))?.[1];
const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The form as a browser posts it (a client not asking for HTML gets the JSON answers). */
const post = (fields: [string, string][], accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8') =>
  fetch(`${stack.url}/api/boards/${tenant.slug}/jobs/${job}/applications`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: accept },
    body: new URLSearchParams(fields).toString(),
  });

describe('the job page form', () => {
  it('is a real form: fields by question type, consent, the honeypot hidden, a form token, and ?src= carried', async () => {
    const res = await jobPage('?src=linkedin');
    expect(res.status).toBe(200);
    const html = await res.text();
    // The careers route (test/integration/applications/careers-apply.test.ts); the posts below go to
    // the JSON route, which still answers a browser's form post with a page, for job pages read before.
    expect(html).toContain(`<form method="post" action="/careers/${tenant.slug}/jobs/${job}/apply"`);
    expect(html).toMatch(/<input id="f-name" name="name"[^>]* required>/);
    expect(html).toMatch(/<input id="f-email" type="email" name="email"[^>]* required>/);
    expect(html).toContain('name="answers.eu_work:bool" value="true" required');
    expect(html).toContain('name="answers.years:number"');
    expect(html).toContain('type="checkbox" id="q2-1" name="answers.langs:list" value="German"');
    expect(html).toMatch(/<textarea id="q3" name="answers\.why"/);
    expect(html).toMatch(/<input type="checkbox" id="f-consent" name="consent.accepted" value="true" required>/);
    expect(html).toContain('<div class="hp" aria-hidden="true">');
    expect(html).toMatch(/name="website" tabindex="-1" autocomplete="off"/);
    expect(hidden(html, 'source')).toBe('linkedin');
    const formToken = decode(hidden(html, 'form_token')!);
    expect(checkFormToken(process.env.FORM_TOKEN_SECRET!, tenant.slug, job, formToken, Date.now() + FORM_MIN_MS)).toBe('ok');
    // Still no script runs on the page: the form needs none.
    expect([...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0])).toEqual(['<script type="application/ld+json">']);
    expect(res.headers.get('content-security-policy')).toBe(CAREERS_CSP);
  });

  it('leaves out a ?src= that is not a source tag', async () => {
    const html = await (await jobPage('?src=Not%20A%20Tag')).text();
    expect(hidden(html, 'source')).toBeUndefined();
  });

  it('is the same version (ETag) on the next read, though its token is not', async () => {
    const first = await jobPage();
    const firstHtml = await first.text();
    // Back, not ahead (test/integration/applications/defences.test.ts says why).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 1000);
    const second = await jobPage();
    expect(hidden(await second.text(), 'form_token')).not.toBe(hidden(firstHtml, 'form_token'));
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
  });
});

describe('posting the form without JavaScript', () => {
  async function readForm(query = '') {
    const html = await (await jobPage(query)).text();
    const fields: [string, string][] = [
      ['name', 'Ada Lovelace'],
      ['email', 'ada.form@example.com'],
      ['phone', ''],
      ['answers.eu_work:bool', 'true'],
      ['answers.years:number', '7'],
      ['answers.langs:list', 'English'],
      ['answers.langs:list', 'French'],
      ['answers.why', ''],
      ['consent.accepted', 'true'],
      ['consent.text', decode(hidden(html, 'consent.text')!)],
      ['consent.version', hidden(html, 'consent.version')!],
      ['website', ''],
      ['form_token', decode(hidden(html, 'form_token')!)],
    ];
    const source = hidden(html, 'source');
    return source ? [...fields, ['source', source] as [string, string]] : fields;
  }

  it('is queued with typed answers, consent and source, and answered with a thank-you page', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const readAt = Date.now() - FORM_MIN_MS;
    vi.setSystemTime(readAt);
    const fields = await readForm('?src=meetup');
    vi.setSystemTime(readAt + FORM_MIN_MS);
    const res = await post(fields);
    expect(res.status).toBe(202);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(CAREERS_CSP);
    const html = await res.text();
    expect(html).toContain('<h1>Application sent</h1>');
    expect(html).toContain(`href="/careers/${tenant.slug}/jobs/${job}"`);
    expect(queued.sent).toHaveLength(1);
    expect(queued.sent[0]).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada.form@example.com',
      answers: { eu_work: true, years: 7, langs: ['English', 'French'] },
      consent: { accepted: true, version: 'careers-1', text: expect.stringContaining('stores and reviews my application') },
      source: 'meetup',
    });
  });

  it('answers a page naming the field at fault: a required answer missing, consent not given', async () => {
    const fields = await readForm();
    for (const [drop, field] of [
      ['answers.eu_work:bool', 'answers.eu_work'],
      ['consent.accepted', 'consent.accepted'],
      ['email', 'email'],
    ] as const) {
      const res = await post(fields.filter(([k]) => k !== drop));
      expect(res.status, field).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html, field).toContain(`Field: <code>${field}</code>`);
      expect(html).toContain('role="alert"');
    }
    expect(queued.sent).toHaveLength(0);
  });

  it('answers JSON, errors with their field, to a client that does not ask for a page', async () => {
    const fields = await readForm();
    const res = await post(
      fields.filter(([k]) => k !== 'answers.eu_work:bool'),
      'application/json',
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: 'answers.eu_work', code: expect.any(String) });
  });
});
