import { acceptApplication } from '../lib/domain/applications';
import { apiHandler, Reply } from '../lib/http';
import * as applicationsApi from '../lib/api/applications';
import { withCors } from '../lib/applications/cors';

export const handler = withCors(
  apiHandler(applicationsApi.applyToJob, async ({ params, body }) => {
    await acceptApplication(params, body);
    return new Reply({ data: { status: 'received' as const } }, { status: 202 });
  }),
);
