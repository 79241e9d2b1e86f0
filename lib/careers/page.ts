/**
 * The careers site's HTML: a workspace's job list and a job's page, readable and navigable
 * without JavaScript (none is served), with `JobPosting` structured data on each job page.
 * Every string from a workspace or a posting is escaped here or by lib/careers/markdown.ts.
 */
import { createHash } from 'node:crypto';
import type { BoardJob, BoardJobDetail } from '../api/boards';
import { escapeHtml as e, renderMarkdown } from './markdown';

/** What the page says about the workspace (its settings; the name falls back to the workspace's). */
export interface CareersBrand {
  name: string;
  logo_url: string | null;
  privacy_url: string | null;
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:46rem;padding:1rem;color:#1a1a1a;background:#fff}' +
  'a{color:#0b57d0}header{display:flex;align-items:center;gap:.75rem}header img{max-height:3rem;width:auto}' +
  'ul.jobs{list-style:none;padding:0}ul.jobs li{border-bottom:1px solid #ddd;padding:.75rem 0}' +
  '.meta{color:#4a4a4a;margin:.25rem 0 0}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}' +
  'dt{font-weight:600}dd{margin:0}footer{margin-top:2rem;font-size:.875rem;color:#4a4a4a}pre{overflow:auto}' +
  'form label{display:block;margin:.25rem 0}input,textarea,button{font:inherit;padding:.5rem;max-width:100%}' +
  'input:not([type=radio]):not([type=checkbox]),textarea{width:100%;box-sizing:border-box;border:1px solid #767676}' +
  'fieldset{border:1px solid #ddd;margin:.75rem 0}button{background:#0b57d0;color:#fff;border:0;border-radius:4px}' +
  '.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}';

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * No script runs on these pages (the JSON-LD block is data, which CSP does not execute); the one
 * style block is allowed by its hash; images (the logo) over https only; forms post to this origin.
 * `connect-src 'self'` gives no script anything (none may run): it lets tools that read this
 * origin's files in the page's context, as Lighthouse reads /robots.txt, do so instead of failing.
 */
export const careersCsp = (storageOrigin?: string) =>
  [
    "default-src 'none'",
    "connect-src 'self'",
    `style-src 'sha256-${STYLE_HASH}'`,
    'img-src https:',
    // The CV upload page's form posts to storage, whose answer redirects back to this origin.
    storageOrigin ? `form-action ${storageOrigin} 'self'` : "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

export const CAREERS_CSP = careersCsp();

const REMOTE_LABEL: Record<BoardJob['remote'], string> = { no: 'On site', hybrid: 'Hybrid', remote: 'Remote' };
const TYPE_LABEL: Record<NonNullable<BoardJob['employment_type']>, string> = {
  direct_hire: 'Full-time',
  contract: 'Contract',
  contract_to_hire: 'Contract to hire',
  temporary: 'Temporary',
  internship: 'Internship',
};
const SCHEMA_TYPE: Record<NonNullable<BoardJob['employment_type']>, string> = {
  direct_hire: 'FULL_TIME',
  contract: 'CONTRACTOR',
  contract_to_hire: 'CONTRACTOR',
  temporary: 'TEMPORARY',
  internship: 'INTERN',
};
const PERIOD_UNIT = { year: 'YEAR', month: 'MONTH', hour: 'HOUR' } as const;

export const careersPath = (slug: string) => `/careers/${encodeURIComponent(slug)}`;

function salaryText(s: NonNullable<BoardJob['salary']>): string {
  const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });
  return `${s.currency} ${n(s.min)}–${n(s.max)} per ${s.period}`;
}

function whereText(job: BoardJob): string {
  const parts = [job.location, REMOTE_LABEL[job.remote]].filter(Boolean) as string[];
  if (job.remote !== 'no' && job.remote_countries.length) parts.push(`from ${job.remote_countries.join(', ')}`);
  return parts.join(' · ');
}

/** A meta description of at most 160 characters: search engines show it under the link. */
function metaDescription(text: string): string {
  // Text only: any markup a title or description holds is dropped, not just escaped.
  const plain = text
    .replace(/<[^>]*>?/g, ' ')
    // A link's words, not its target.
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/[#*_`>[\]()!|~]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = plain.length > 160 ? `${plain.slice(0, 157).replace(/\s+\S*$/, '')}…` : plain;
  return `<meta name="description" content="${e(cut)}">`;
}

function layout(brand: CareersBrand, slug: string, title: string, main: string, head = ''): string {
  const logo = brand.logo_url ? `<img src="${e(brand.logo_url)}" alt="${e(brand.name)} logo" height="48">` : '';
  const privacy = brand.privacy_url ? `<a href="${e(brand.privacy_url)}">Privacy notice</a>` : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${e(title)}</title><style>${STYLE}</style>${head}</head>` +
    `<body><header>${logo}<a href="${careersPath(slug)}">${e(brand.name)} careers</a></header>` +
    `<main>${main}</main><footer>${privacy}</footer></body></html>`
  );
}

/**
 * The list of open jobs, each a link to its page; `next` is the next page's cursor, if any. A
 * `source` (the link's `?src=`) goes on with every link, so the application it leads to keeps it.
 */
export function jobListPage(brand: CareersBrand, slug: string, jobs: BoardJob[], next: string | null, source?: string): string {
  const src = source ? `src=${encodeURIComponent(source)}` : '';
  const items = jobs
    .map(
      (j) =>
        `<li><a href="${e(src ? `${j.url}?${src}` : j.url)}">${e(j.title)}</a>` +
        `<p class="meta">${e([j.department, whereText(j), j.employment_type && TYPE_LABEL[j.employment_type]].filter(Boolean).join(' · '))}</p></li>`,
    )
    .join('');
  const list = jobs.length ? `<ul class="jobs">${items}</ul>` : '<p>No open positions right now.</p>';
  const more = next ? `<p><a href="${careersPath(slug)}?cursor=${e(next)}${src ? `&amp;${src}` : ''}">More jobs</a></p>` : '';
  const about = metaDescription(`Open jobs at ${brand.name}: ${jobs.map((j) => j.title).join(', ') || 'none right now'}.`);
  return layout(brand, slug, `Jobs at ${brand.name}`, `<h1>Jobs at ${e(brand.name)}</h1>${list}${more}`, about);
}

/** JSON inside a script element: `<`, `>`, `&` and line separators escaped so no text can close it. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** schema.org JobPosting, as search engines read it. */
export function jobPostingData(brand: CareersBrand, job: BoardJobDetail, descriptionHtml: string): Record<string, unknown> {
  const remote = job.remote === 'remote';
  return {
    '@context': 'https://schema.org',
    '@type': 'JobPosting',
    title: job.title,
    description: descriptionHtml,
    datePosted: job.published_at,
    ...(job.employment_type && { employmentType: SCHEMA_TYPE[job.employment_type] }),
    hiringOrganization: { '@type': 'Organization', name: brand.name, ...(brand.logo_url && { logo: brand.logo_url }) },
    ...(job.location && { jobLocation: { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: job.location } } }),
    ...(remote && { jobLocationType: 'TELECOMMUTE' }),
    ...(remote && {
      applicantLocationRequirements: job.remote_countries.length
        ? job.remote_countries.map((c) => ({ '@type': 'Country', name: c }))
        : { '@type': 'AdministrativeArea', name: 'Anywhere' },
    }),
    ...(job.salary && {
      baseSalary: {
        '@type': 'MonetaryAmount',
        currency: job.salary.currency,
        value: {
          '@type': 'QuantitativeValue',
          minValue: job.salary.min,
          maxValue: job.salary.max,
          unitText: PERIOD_UNIT[job.salary.period],
        },
      },
    }),
  };
}

/**
 * The application form's slot on a job page: HTML of the form, or '' while applying is not
 * offered. The form itself (its fields and its POST) is built in its own module and plugs in here.
 */
export type ApplicationFormSlot = (slug: string, job: BoardJobDetail) => string;
export const noApplicationForm: ApplicationFormSlot = () => '';

export function jobPage(
  brand: CareersBrand,
  slug: string,
  job: BoardJobDetail,
  applicationForm: ApplicationFormSlot = noApplicationForm,
): string {
  const description = renderMarkdown(job.description);
  const facts: [string, string | null][] = [
    ['Location', whereText(job) || null],
    ['Department', job.department],
    ['Employment type', job.employment_type && TYPE_LABEL[job.employment_type]],
    ['Salary', job.salary && salaryText(job.salary)],
  ];
  const dl = facts
    .filter(([, v]) => v)
    .map(([k, v]) => `<dt>${k}</dt><dd>${e(v!)}</dd>`)
    .join('');
  const main =
    `<p><a href="${careersPath(slug)}">All jobs</a></p><article><h1>${e(job.title)}</h1><dl>${dl}</dl>` +
    `<section aria-label="Description">${description}</section></article>` +
    // APPLICATION FORM SLOT: the form's HTML, or nothing.
    applicationForm(slug, job);
  const ld = `<script type="application/ld+json">${scriptJson(jobPostingData(brand, job, description))}</script>`;
  const about = metaDescription(`${[`${job.title} at ${brand.name}`, whereText(job)].filter(Boolean).join(', ')}. ${job.description}`);
  return layout(brand, slug, `${job.title} at ${brand.name}`, main, about + ld);
}

/** A page of one message: a heading and HTML under it (already escaped). */
export function messagePage(title: string, html: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(title)}</title>` +
    `<style>${STYLE}</style></head><body><main><h1>${e(title)}</h1>${html}</main></body></html>`
  );
}

/** The one not-found page: unknown slug, unknown job, unpublished, or a requisition not open. */
export const notFoundPage = (): string =>
  messagePage('Page not found', '<p>This job or careers page does not exist, or the position is no longer open.</p>');
