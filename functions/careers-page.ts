import * as careersApi from '../lib/api/careers';
import { careersHandler, pageNotFound } from '../lib/careers/http';
import { jobListPage } from '../lib/careers/page';
import { careersList } from '../lib/domain/careers';

/** Public: a workspace's careers page, its open jobs as HTML. */
export const handler = careersHandler(careersApi.careersPage, async ({ params, query }) => {
  const found = await careersList(params.slug, query.cursor);
  if (!found) throw pageNotFound();
  return jobListPage(found.brand, params.slug, found.jobs, found.next);
});
