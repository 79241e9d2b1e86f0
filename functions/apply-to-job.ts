import { acceptApplication } from '../lib/domain/applications';
import { clientAddress } from '../lib/edge';
import { apiHandler, Reply } from '../lib/http';
import * as applicationsApi from '../lib/api/applications';
import { withCors } from '../lib/applications/cors';
import { withFormPosts } from '../lib/careers/form-post';

/** JSON from any site's code; the careers form's urlencoded post without JavaScript answers pages. */
export const handler = withCors(
  withFormPosts(
    apiHandler(applicationsApi.applyToJob, async ({ params, body, event }) => {
      await acceptApplication(params, body, clientAddress(event));
      return new Reply({ data: { status: 'received' as const } }, { status: 202 });
    }),
  ),
);
