import * as careersApi from '../lib/api/careers';
import { SOURCE_PATTERN, UPLOAD_ID_PATTERN } from '../lib/api/applications';
import { applicationForm } from '../lib/careers/form';
import { careersHandler, pageNotFound } from '../lib/careers/http';
import { jobPage } from '../lib/careers/page';
import { config } from '../lib/config';
import { careersJob } from '../lib/domain/careers';
import { formTokenWindow, issueFormToken } from '../lib/domain/form-token';

/** Public: a job's page as HTML, with its JobPosting structured data and its application form. */
export const handler = careersHandler(careersApi.careersJobPage, async ({ params, event }) => {
  const found = await careersJob(params.slug, params.id);
  if (!found) throw pageNotFound();
  const now = Date.now();
  const token = issueFormToken(config.formTokenSecret, params.slug, params.id, now);
  const src = event.queryStringParameters?.src;
  const source = src && SOURCE_PATTERN.test(src) ? src : undefined;
  // Where the CV upload returned to: only an id of the form the service makes is kept.
  const sent = event.queryStringParameters?.cv;
  const cv = sent && UPLOAD_ID_PATTERN.test(sent) ? sent : undefined;
  const html = jobPage(found.brand, params.slug, found.job, () => applicationForm(found.brand, params.slug, found.job, token, source, cv));
  // The token differs on every read; the page is the same version within a token window.
  return { html, version: [found, source, cv, formTokenWindow(now)] };
});
