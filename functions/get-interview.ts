import { getInterview } from '../lib/domain/interviews';
import { apiHandler, data } from '../lib/http';
import * as interviewsApi from '../lib/api/interviews';

export const handler = apiHandler(interviewsApi.getInterview, async ({ principal, params }) =>
  data(await getInterview(principal, params.id)),
);
