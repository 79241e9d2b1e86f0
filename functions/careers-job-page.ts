import * as careersApi from '../lib/api/careers';
import { careersHandler, pageNotFound } from '../lib/careers/http';
import { jobPage } from '../lib/careers/page';
import { careersJob } from '../lib/domain/careers';

/** Public: a job's page as HTML, with its JobPosting structured data. */
export const handler = careersHandler(careersApi.careersJobPage, async ({ params }) => {
  const found = await careersJob(params.slug, params.id);
  if (!found) throw pageNotFound();
  // The application form plugs in as jobPage's last argument (lib/careers/page.ts ApplicationFormSlot).
  return jobPage(found.brand, params.slug, found.job);
});
