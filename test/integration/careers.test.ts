/**
 * The careers pages as HTML, without a token or session: the list of open jobs (links), a job's
 * page with its sanitised description, facts and JobPosting JSON-LD, the strict CSP and cache
 * headers, ETag and 304, hostile titles and descriptions escaped (no script survives), another
 * workspace's slug never showing yours, and the one 404 page for every unknown or hidden job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCareersSettings } from '../../lib/store/careers';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';
import { until } from '../helpers/until';

let stack: Stack;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
});
afterAll(() => stack.close());

const newReq = async (body: Record<string, unknown>, t = token) =>
  (await stack.call('POST', '/api/v1/requisitions', { token: t, body })).body.data.id as string;
const publish = (id: string, body: Record<string, unknown> = {}, t = token) =>
  stack.call('PUT', `/api/v1/requisitions/${id}/posting`, {
    token: t,
    body: { published: true, description: 'We build **things**.', ...body },
  });
const page = (path: string, headers: Record<string, string> = {}) => stack.call('GET', path, { headers });

/** The JSON-LD blocks of a page, parsed. */
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, any>);
/** Every <script opening in the page: only the JSON-LD data block may be there. */
const scriptTags = (html: string) => [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);

const HOSTILE_TITLE = '</script><script>alert(1)</script><img src=x onerror=alert(2)>';
const HOSTILE_DESCRIPTION = [
  '# About <script>alert(3)</script>',
  '',
  'Click [here](javascript:alert(4)) or [there](https://example.com/a?b=1&c="2") <iframe src=//evil>',
  '',
  '<img src=x onerror=alert(5)> and `<b>code</b>` and **bold** _em_',
  '',
  '- one',
  '- two </script>',
].join('\n');

describe('GET /careers/{slug} and /careers/{slug}/jobs/{id}', () => {
  let eng: string;
  let remote: string;
  let hostile: string;
  let hidden: string;
  let onHold: string;
  beforeAll(async () => {
    await saveCareersSettings(tenant.id, {
      careers_name: 'Acme & Co',
      careers_logo_url: 'https://cdn.example.com/logo.png',
      careers_privacy_url: 'https://acme.example.com/privacy',
    });
    eng = await newReq({ title: 'Platform Engineer', department: 'Engineering', location: 'Zürich' });
    await publish(eng, {
      remote: 'hybrid',
      remote_countries: ['CH'],
      employment_type: 'direct_hire',
      salary: { min: 120000, max: 150000, currency: 'CHF', period: 'year' },
      description: '## The role\n\nYou will run **our platform**.\n\n1. Build\n2. Operate',
    });
    remote = await newReq({ title: 'Support Lead' });
    await publish(remote, { remote: 'remote', remote_countries: ['DE', 'FR'], employment_type: 'contract' });
    hostile = await newReq({ title: HOSTILE_TITLE });
    await publish(hostile, { description: HOSTILE_DESCRIPTION });
    hidden = await newReq({ title: 'Hidden' });
    await publish(hidden, { published: false });
    onHold = await newReq({ title: 'On hold' });
    await publish(onHold);
    await stack.call('POST', `/api/v1/requisitions/${onHold}/status`, { token, body: { status: 'on_hold', reason: 'budget' } });
  });

  it('lists the open jobs as links in plain HTML, with the strict CSP and the edge lifetime', async () => {
    const res = await until('three jobs on the careers page', async () => {
      const r = await page(`/careers/${tenant.slug}`);
      return r.status === 200 && r.text.includes('Support Lead') && r.text.includes('Platform Engineer') ? r : undefined;
    });
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src|unsafe-inline/);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=0, s-maxage=\d+$/);
    expect(res.text).toMatch(/^<!doctype html><html lang="en">/);
    expect(res.text).toContain(`<h1>Jobs at Acme &amp; Co</h1>`);
    expect(res.text).toContain(`<a href="/careers/${tenant.slug}/jobs/${eng}">Platform Engineer</a>`);
    expect(res.text).toContain(`<a href="/careers/${tenant.slug}/jobs/${remote}">Support Lead</a>`);
    expect(res.text).toContain('<img src="https://cdn.example.com/logo.png" alt="Acme &amp; Co logo"');
    expect(res.text).toContain('<a href="https://acme.example.com/privacy">Privacy notice</a>');
    expect(res.text).not.toContain('Hidden');
    expect(res.text).not.toContain('On hold');
    expect(scriptTags(res.text)).toEqual([]);
    // If-None-Match with the ETag answers 304.
    const again = await page(`/careers/${tenant.slug}`, { 'If-None-Match': res.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('a link’s ?src= goes on to each job’s page; tracking parameters and a bad tag are ignored, not a 404', async () => {
    const tagged = await page(`/careers/${tenant.slug}?src=linkedin&utm_source=newsletter&utm_medium=email`);
    expect(tagged.status).toBe(200);
    expect(tagged.text).toContain(`<a href="/careers/${tenant.slug}/jobs/${eng}?src=linkedin">Platform Engineer</a>`);
    const bad = await page(`/careers/${tenant.slug}?src=%3Cscript%3E&fbclid=x`);
    expect(bad.status).toBe(200);
    expect(bad.text).toContain(`<a href="/careers/${tenant.slug}/jobs/${eng}">Platform Engineer</a>`);
    expect(bad.text).not.toMatch(/jobs\/[^"]*\?src=/);
    // A cursor that is not one is still refused, with the not-found page.
    expect((await page(`/careers/${tenant.slug}?cursor=nope`)).status).toBe(404);
  });

  it('shows a job with its facts, its description rendered and its JobPosting data', async () => {
    const res = await page(`/careers/${tenant.slug}/jobs/${eng}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>Platform Engineer</h1>');
    expect(res.text).toContain('<dt>Location</dt><dd>Zürich · Hybrid · from CH</dd>');
    expect(res.text).toContain('<dt>Employment type</dt><dd>Full-time</dd>');
    expect(res.text).toContain('<dt>Salary</dt><dd>CHF 120,000–150,000 per year</dd>');
    // A description's first heading sits right below the job title, whatever its own level.
    expect(res.text).toContain('<h2>The role</h2>');
    expect(res.text).toContain('<p>You will run <strong>our platform</strong>.</p>');
    expect(res.text).toContain('<ol><li>Build</li><li>Operate</li></ol>');
    expect(res.text).toContain(`<a href="/careers/${tenant.slug}">All jobs</a>`);
    const [ld = {}, ...more] = jsonLd(res.text);
    expect(more).toEqual([]);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: 'Platform Engineer',
      employmentType: 'FULL_TIME',
      hiringOrganization: { '@type': 'Organization', name: 'Acme & Co', logo: 'https://cdn.example.com/logo.png' },
      jobLocation: { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: 'Zürich' } },
      baseSalary: {
        '@type': 'MonetaryAmount',
        currency: 'CHF',
        value: { '@type': 'QuantitativeValue', minValue: 120000, maxValue: 150000, unitText: 'YEAR' },
      },
    });
    expect(ld.description).toContain('<strong>our platform</strong>');
    expect(Date.parse(ld.datePosted)).not.toBeNaN();
    expect(ld.jobLocationType).toBeUndefined();

    const rem = jsonLd((await page(`/careers/${tenant.slug}/jobs/${remote}`)).text)[0]!;
    expect(rem).toMatchObject({
      employmentType: 'CONTRACTOR',
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: [
        { '@type': 'Country', name: 'DE' },
        { '@type': 'Country', name: 'FR' },
      ],
    });
  });

  it('escapes hostile titles and descriptions: no script, handler or javascript: link survives', async () => {
    const res = await page(`/careers/${tenant.slug}/jobs/${hostile}`);
    expect(res.status).toBe(200);
    // One script element: the JSON-LD data, whose text cannot close it.
    expect(scriptTags(res.text)).toEqual(['<script type="application/ld+json">']);
    expect(res.text.match(/<\/script>/g)).toHaveLength(1);
    const html = res.text.replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>/, '');
    expect(html).not.toMatch(/<(script|img src=x|iframe)/i);
    expect(html).not.toMatch(/<[^>]*\sonerror=/i);
    expect(html).not.toContain('javascript:');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<code>&lt;b&gt;code&lt;/b&gt;</code>');
    expect(html).toContain('<a href="https://example.com/a?b=1&amp;c=&quot;2&quot;" rel="nofollow noopener">there</a>');
    expect(html).toContain('<strong>bold</strong> <em>em</em>');
    // The JSON-LD still carries the title as written, parsed back from its escaped form.
    const [ld] = jsonLd(res.text);
    expect(ld!.title).toBe(HOSTILE_TITLE);
    expect(ld!.description).not.toMatch(/<script|javascript:|<img/i);
    // The list page escapes it too.
    const list = await page(`/careers/${tenant.slug}`);
    expect(scriptTags(list.text)).toEqual([]);
  });

  it('answers the same 404 page for an unknown slug or job, a hidden or on-hold job, and a workspace with nothing posted', async () => {
    const other = await stack.tenant();
    const missing = '00000000-0000-4000-8000-000000000000';
    const paths = [
      `/careers/no-such-${tenant.slug}`,
      `/careers/no-such-${tenant.slug}/jobs/${eng}`,
      `/careers/${tenant.slug}/jobs/${missing}`,
      `/careers/${tenant.slug}/jobs/${hidden}`,
      `/careers/${tenant.slug}/jobs/${onHold}`,
      `/careers/${tenant.slug}/jobs/not-a-uuid`,
      `/careers/Not_A_Slug`,
      // Isolation: another workspace's slug never shows this one's jobs, and shows nothing of its own.
      `/careers/${other.slug}`,
      `/careers/${other.slug}/jobs/${eng}`,
    ];
    const answers = await Promise.all(paths.map((p) => page(p)));
    const first = answers[0]!;
    expect(first.status).toBe(404);
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(first.text).toContain('<h1>Page not found</h1>');
    for (const [i, a] of answers.entries()) {
      expect({ path: paths[i], status: a.status, text: a.text }).toEqual({ path: paths[i], status: 404, text: first.text });
      expect(a.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    }
  });
});
