/**
 * The CV upload without JavaScript: the job page's "Upload your CV" form posts here (urlencoded,
 * the form token), and a browser (Accept names text/html) gets a page whose form posts the file
 * straight to storage with the presigned fields; S3 then sends the browser back to the job page
 * (`success_action_redirect`, pinned in the policy) with `?cv=<upload id>`. The bytes never pass
 * through a function, whose payload limit (6 MB) is below a CV's. Any other client gets the JSON
 * answer. Only the CV upload function imports it.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { config } from '../config';
import { siteHosts } from '../edge';
import { header } from '../headers';
import { careersCsp, careersPath, messagePage, notFoundPage } from './page';
import { escapeHtml as e } from './markdown';
import { FORM_MEDIA_TYPE } from './form-post';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** The job page a form post's upload returns to, by the event this wrapper hands on: set by it alone. */
export const cvReturnTo = new WeakMap<APIGatewayProxyEvent, string>();

/**
 * The job page on the site the browser is on: the viewer's host CloudFront passed on (https), else
 * the form's Origin (a page sent with no-referrer posts `Origin: null`), else the request's host
 * (plain http only under `npm start`, never in Lambda).
 */
function jobPageUrl(event: APIGatewayProxyEvent): string {
  const [host, viewer] = siteHosts(event);
  const origin = header(event, 'origin');
  const base = viewer
    ? `https://${viewer}`
    : origin && /^https?:\/\/[^/]+$/.test(origin)
      ? origin
      : `${config.inLambda ? 'https' : 'http'}://${host ?? ''}`;
  const slug = event.pathParameters?.slug ?? '';
  const id = event.pathParameters?.id ?? '';
  return `${base}${careersPath(slug)}/jobs/${encodeURIComponent(id)}`;
}

interface Issued {
  url: string;
  fields: Record<string, string>;
}

const ACCEPT = '.pdf,.docx,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The page with the form to storage: every presigned field, then the file, last. */
export function cvUploadPage(up: Issued, jobPath: string): string {
  const hidden = Object.entries(up.fields)
    .map(([k, v]) => `<input type="hidden" name="${e(k)}" value="${e(v)}">`)
    .join('');
  return messagePage(
    'Upload your CV',
    `<form method="post" action="${e(up.url)}" enctype="multipart/form-data">${hidden}` +
      `<p><label for="cv-file">Your CV: a PDF or Word (.docx) file of at most 10 MB</label>` +
      `<input type="file" id="cv-file" name="file" accept="${ACCEPT}" required></p>` +
      `<p><button type="submit">Upload</button></p></form><p><a href="${e(jobPath)}">Back to the job</a></p>`,
  );
}

export const withCvFormPage =
  (handler: Handler, storageOrigin: () => string): Handler =>
  async (event, context) => {
    const type = header(event, 'content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type !== FORM_MEDIA_TYPE) return handler(event, context);
    const headers = Object.fromEntries(Object.entries(event.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'content-type'));
    const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
    const form = new URLSearchParams(raw);
    const body = { form_token: form.get('form_token') ?? '', ...(form.get('source') && { source: form.get('source') }) };
    const jobPath = jobPageUrl(event);
    const asJson: APIGatewayProxyEvent = {
      ...event,
      headers: { ...headers, 'content-type': 'application/json' },
      multiValueHeaders: {},
      body: JSON.stringify(body),
      isBase64Encoded: false,
    };
    cvReturnTo.set(asJson, jobPath);
    const res = await handler(asJson, context);
    if (!header(event, 'accept')?.toLowerCase().includes('text/html')) return res;
    const pageHeaders = {
      ...res.headers,
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': careersCsp(res.statusCode === 201 ? storageOrigin() : undefined),
    };
    if (res.statusCode === 201) {
      const { data } = JSON.parse(res.body) as { data: Issued };
      return { statusCode: 201, headers: pageHeaders, body: cvUploadPage(data, jobPath) };
    }
    if (res.statusCode === 404) return { statusCode: 404, headers: pageHeaders, body: notFoundPage() };
    const { error } = JSON.parse(res.body || '{}') as { error?: string };
    return {
      statusCode: res.statusCode,
      headers: pageHeaders,
      body: messagePage(
        'The CV could not be uploaded',
        `<p role="alert">${e(error ?? 'The upload could not be started.')}</p><p><a href="${e(jobPath)}">Back to the job</a></p>`,
      ),
    };
  };
