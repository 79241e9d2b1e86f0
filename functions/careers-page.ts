import * as careersApi from '../lib/api/careers';
import { SOURCE_PATTERN } from '../lib/api/applications';
import { careersHandler, pageNotFound } from '../lib/careers/http';
import { jobListPage } from '../lib/careers/page';
import { careersList } from '../lib/domain/careers';

/** Public: a workspace's careers page, its open jobs as HTML. */
export const handler = careersHandler(careersApi.careersPage, async ({ params, query }) => {
  const found = await careersList(params.slug, query.cursor);
  if (!found) throw pageNotFound();
  const source = query.src && SOURCE_PATTERN.test(query.src) ? query.src : undefined;
  return jobListPage(found.brand, params.slug, found.jobs, found.next, source);
});
