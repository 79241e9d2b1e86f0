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
import { formAsJson, isFormPost, malformedJob, wantsPage } from './form-post';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** The job page a form post's upload returns to, by the event this wrapper hands on: set by it alone. */
const cvReturnTo = new WeakMap<APIGatewayProxyEvent, string>();

/**
 * Where storage sends the browser back once a form post's CV landed: the job page with the upload
 * id (and the applicant's source); none for a JSON client, which reads the upload's answer itself.
 */
export function cvReturn(event: APIGatewayProxyEvent, source: string | undefined): ((uploadId: string) => string) | undefined {
  const jobPage = cvReturnTo.get(event);
  if (jobPage === undefined) return undefined;
  return (id) => `${jobPage}?cv=${encodeURIComponent(id)}${source ? `&src=${encodeURIComponent(source)}` : ''}`;
}

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

/**
 * `when-asked` (the public JSON route): a urlencoded post from a browser (Accept names text/html)
 * gets the page, anything else the route's JSON. `always` (the careers route under /careers/,
 * the one the job page's form posts to): every answer is a page.
 */
export const withCvFormPage =
  (handler: Handler, storageOrigin: () => string, pages: 'when-asked' | 'always' = 'when-asked'): Handler =>
  async (event, context) => {
    const form = isFormPost(event);
    if (!form && pages === 'when-asked') return handler(event, context);
    const jobPath = jobPageUrl(event);
    const inner: APIGatewayProxyEvent = form ? formAsJson(event, cvFormBody) : { ...event };
    cvReturnTo.set(inner, jobPath);
    const res = await handler(inner, context);
    if (!wantsPage(event, pages)) return res;
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
    // A malformed slug or id is a job that does not exist, as on the careers pages.
    if (res.statusCode === 404 || (pages === 'always' && malformedJob(res)))
      return { statusCode: 404, headers: pageHeaders, body: notFoundPage() };
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

/** The CV form's fields as the JSON body the route takes: the form token, and the source when given. */
function cvFormBody(raw: string): Record<string, unknown> {
  const form = new URLSearchParams(raw);
  return { form_token: form.get('form_token') ?? '', ...(form.get('source') && { source: form.get('source') }) };
}
