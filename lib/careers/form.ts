/**
 * The application form of a careers job page: plain HTML that works without JavaScript, posting
 * `application/x-www-form-urlencoded` to the careers application route
 * (`POST /careers/{slug}/jobs/{id}/apply`; lib/careers/form-post.ts reads it). Field names carry the answer's type after a colon (`answers.<id>:bool`, `:number`,
 * `:list`), so the post is read without the posting. Only the careers job page imports it.
 */
import type { BoardJobDetail } from '../api/boards';
import type { CareersBrand } from './page';
import { escapeHtml as e } from './markdown';

/** What the applicant accepts, recorded with the application as consent.text and .version. */
export const CONSENT_VERSION = 'careers-1';
export const consentText = (brand: CareersBrand) =>
  `I agree that ${brand.name || 'this employer'} stores and reviews my application, as its privacy notice describes.`;

type Question = BoardJobDetail['questions'][number];

function questionField(q: Question, i: number): string {
  const id = `q${i}`;
  const label = `${e(q.label)}${q.required ? '' : ' (optional)'}`;
  const req = q.required ? ' required' : '';
  const name = (kind = '') => e(`answers.${q.id}${kind}`);
  const choices = (type: 'radio' | 'checkbox', kind: string, values: [string, string][]) =>
    `<fieldset><legend>${label}</legend>${values
      .map(
        ([value, text], k) =>
          `<label for="${id}-${k}"><input type="${type}" id="${id}-${k}" name="${name(kind)}" value="${e(value)}"${type === 'radio' ? req : ''}> ${e(text)}</label>`,
      )
      .join('')}</fieldset>`;
  switch (q.type) {
    case 'yes_no':
      return choices('radio', ':bool', [
        ['true', 'Yes'],
        ['false', 'No'],
      ]);
    case 'single_choice':
      return choices(
        'radio',
        '',
        (q.options ?? []).map((o) => [o, o]),
      );
    case 'multi_choice':
      return choices(
        'checkbox',
        ':list',
        (q.options ?? []).map((o) => [o, o]),
      );
    case 'number':
      return `<p><label for="${id}">${label}</label><input type="number" step="any" inputmode="decimal" id="${id}" name="${name(':number')}"${req}></p>`;
    case 'long_text':
      return `<p><label for="${id}">${label}</label><textarea id="${id}" name="${name()}" rows="5" maxlength="5000"${req}></textarea></p>`;
    default:
      return `<p><label for="${id}">${label}</label><input id="${id}" name="${name()}" maxlength="500"${req}></p>`;
  }
}

/** The careers route for the form's post: its thank-you page is under /careers/, so it keeps this page's CSP. */
const applyAction = (slug: string, job: BoardJobDetail) => `/careers/${encodeURIComponent(slug)}/jobs/${encodeURIComponent(job.id)}/apply`;

/**
 * The CV step, a form of its own (forms do not nest): it asks the careers CV route for a presigned
 * POST, whose page (lib/careers/cv-page.ts) sends the file straight to storage and comes back here
 * with `?cv=<upload id>`. That page is under /careers/, so it carries this page's CSP when deployed.
 */
function cvStep(slug: string, job: BoardJobDetail, formToken: string, source: string | undefined, cvUploadId: string | undefined) {
  const optional = job.cv === 'optional' ? ' (optional)' : '';
  const done = cvUploadId ? `<p role="status">Your CV is uploaded.</p>` : '';
  return (
    `<form method="post" action="${e(`/careers/${encodeURIComponent(slug)}/jobs/${encodeURIComponent(job.id)}/cv`)}" enctype="application/x-www-form-urlencoded">` +
    `<h3>Your CV${optional}</h3>${done}<p>A PDF or Word (.docx) file of at most 10 MB.</p>` +
    `<input type="hidden" name="form_token" value="${e(formToken)}">` +
    (source ? `<input type="hidden" name="source" value="${e(source)}">` : '') +
    `<p><button type="submit">${cvUploadId ? 'Upload another CV' : 'Upload your CV'}</button></p></form>`
  );
}

/**
 * The form for one job. `formToken`: from this page's read (lib/domain/form-token.ts); `source`:
 * the page's `?src=`, already checked against the application's source pattern; `cvUploadId`: the
 * page's `?cv=`, the CV uploaded from it. A job that requires a CV shows the application's fields
 * once the CV is in.
 */
export function applicationForm(
  brand: CareersBrand,
  slug: string,
  job: BoardJobDetail,
  formToken: string,
  source?: string,
  cvUploadId?: string,
): string {
  const consent = consentText(brand);
  const cv = job.cv === 'off' ? '' : cvStep(slug, job, formToken, source, cvUploadId);
  const heading = `<section aria-labelledby="apply"><h2 id="apply">Apply</h2>`;
  if (job.cv === 'required' && !cvUploadId) return `${heading}${cv}<p>Upload your CV first; the application form follows.</p></section>`;
  return (
    heading +
    cv +
    `<form method="post" action="${e(applyAction(slug, job))}" enctype="application/x-www-form-urlencoded">` +
    (cvUploadId ? `<input type="hidden" name="cv_upload_id" value="${e(cvUploadId)}">` : '') +
    `<p><label for="f-name">Full name</label><input id="f-name" name="name" autocomplete="name" maxlength="200" required></p>` +
    `<p><label for="f-email">Email</label><input id="f-email" type="email" name="email" autocomplete="email" maxlength="254" required></p>` +
    `<p><label for="f-phone">Phone (optional)</label><input id="f-phone" type="tel" name="phone" autocomplete="tel" maxlength="40"></p>` +
    job.questions.map(questionField).join('') +
    `<p><label for="f-consent"><input type="checkbox" id="f-consent" name="consent.accepted" value="true" required> ${e(consent)}</label></p>` +
    `<input type="hidden" name="consent.text" value="${e(consent)}"><input type="hidden" name="consent.version" value="${CONSENT_VERSION}">` +
    // The honeypot: off-screen, out of the accessibility tree and the tab order; people leave it empty.
    `<div class="hp" aria-hidden="true"><label for="f-website">Website</label><input id="f-website" name="website" tabindex="-1" autocomplete="off"></div>` +
    `<input type="hidden" name="form_token" value="${e(formToken)}">` +
    (source ? `<input type="hidden" name="source" value="${e(source)}">` : '') +
    `<p><button type="submit">Send application</button></p></form></section>`
  );
}
