/**
 * The careers form's post without JavaScript (lib/careers/form.ts): an
 * `application/x-www-form-urlencoded` body is read into the JSON body the route takes and, for a
 * browser (its Accept names text/html), the JSON answer becomes a page: a thank-you page for the
 * 202, a page naming the field at fault for a 400, the not-found page for a 404. Other clients get
 * the JSON answers, and JSON posts pass through untouched. The careers route (POST
 * /careers/{slug}/jobs/{id}/apply) answers every post with a page. Only the application functions
 * import it.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { CAREERS_CSP, careersPath, messagePage, notFoundPage } from './page';
import { escapeHtml as e } from './markdown';
import { header } from '../headers';

export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** The form's fields as the JSON body: `answers.<id>[:bool|:number|:list]`, `consent.<key>`, the rest as they are. */
export function formBody(raw: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const answers: Record<string, unknown> = {};
  const consent: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    // An empty field is an unanswered one (the browser sends every text input); the honeypot is kept as sent.
    if (value.trim() === '' && key !== 'website') continue;
    if (key.startsWith('answers.')) {
      const [id = '', kind] = key.slice('answers.'.length).split(':');
      if (kind === 'list') ((answers[id] ??= []) as string[]).push(value);
      else answers[id] = kind === 'bool' ? value === 'true' : kind === 'number' ? Number(value) : value;
    } else if (key.startsWith('consent.')) {
      const k = key.slice('consent.'.length);
      consent[k] = k === 'accepted' ? value === 'true' : value;
    } else body[key] = value;
  }
  return { ...body, answers, consent };
}

const PAGE_HEADERS = { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CAREERS_CSP, 'Cache-Control': 'no-store' };

function page(res: APIGatewayProxyResult, jobPath: string): APIGatewayProxyResult {
  const back = `<p><a href="${e(jobPath)}">Back to the job</a></p>`;
  const headers = { ...res.headers, ...PAGE_HEADERS };
  if (res.statusCode === 202)
    return {
      statusCode: 202,
      headers,
      body: messagePage('Application sent', `<p role="status">Thank you: we received your application.</p>${back}`),
    };
  if (res.statusCode === 404) return { statusCode: 404, headers, body: notFoundPage() };
  const { error, field } = JSON.parse(res.body || '{}') as { error?: string; field?: string };
  const detail = `<p role="alert">${e(error ?? 'The application could not be sent.')}</p>${field ? `<p>Field: <code>${e(field)}</code></p>` : ''}`;
  return {
    statusCode: res.statusCode,
    headers,
    body: messagePage('Please check your application', `${detail}<p>Go back, correct it and send it again.</p>${back}`),
  };
}

/**
 * `when-asked` (the public JSON route): a urlencoded post from a browser (Accept names text/html)
 * gets a page, anything else the route's JSON. `always` (the careers route under /careers/, the
 * one the job page's form posts to): every answer is a page, a malformed slug or id the not-found
 * page as on the careers pages.
 */
export const withFormPosts =
  (handler: Handler, pages: 'when-asked' | 'always' = 'when-asked'): Handler =>
  async (event, context) => {
    const form = isFormPost(event);
    if (!form && pages === 'when-asked') return handler(event, context);
    const res = await handler(form ? formAsJson(event, formBody) : event, context);
    if (!wantsPage(event, pages)) return res;
    const slug = event.pathParameters?.slug ?? '';
    const id = event.pathParameters?.id ?? '';
    const malformed = pages === 'always' && malformedJob(res);
    return page(malformed ? { ...res, statusCode: 404 } : res, `${careersPath(slug)}/jobs/${encodeURIComponent(id)}`);
  };

/** A post of the careers pages' urlencoded forms (the CV step's too, lib/careers/cv-page.ts). */
export const isFormPost = (event: APIGatewayProxyEvent) =>
  header(event, 'content-type')?.split(';')[0]?.trim().toLowerCase() === FORM_MEDIA_TYPE;

/** A browser submitting a form asks for a page; any other client keeps the JSON answer, unless every answer is a page. */
export const wantsPage = (event: APIGatewayProxyEvent, pages: 'when-asked' | 'always') =>
  pages === 'always' || !!header(event, 'accept')?.toLowerCase().includes('text/html');

/** A 400 naming the slug or the id: on a careers route, a job that does not exist (the not-found page). */
export function malformedJob(res: APIGatewayProxyResult): boolean {
  if (res.statusCode !== 400) return false;
  try {
    return /^(slug|id)$/.test(String((JSON.parse(res.body) as { field?: unknown }).field ?? ''));
  } catch {
    return false;
  }
}

/** The form post as the JSON post its route takes, `toBody` reading the form's fields. */
export function formAsJson(event: APIGatewayProxyEvent, toBody: (raw: string) => Record<string, unknown>): APIGatewayProxyEvent {
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'content-type'));
  return {
    ...event,
    headers: { ...headers, 'content-type': 'application/json' },
    multiValueHeaders: {},
    body: JSON.stringify(toBody(raw)),
    isBase64Encoded: false,
  };
}
