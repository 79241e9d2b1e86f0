import { acceptApplication } from '../lib/domain/applications';
import { clientAddress } from '../lib/edge';
import { apiHandler, Reply } from '../lib/http';
import * as applicationsApi from '../lib/api/applications';
import { withFormPosts } from '../lib/careers/form-post';

/** The careers job page's application form: always a page, under /careers/ and so with the careers CSP. */
export const handler = withFormPosts(
  apiHandler(applicationsApi.careersApply, async ({ params, body, event }) => {
    await acceptApplication(params, body, clientAddress(event));
    return new Reply({ data: { status: 'received' } } as never, { status: 202 });
  }),
  'always',
);
