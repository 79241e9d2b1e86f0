import { getInterview } from '../lib/domain/interviews';
import { apiHandler, data } from '../lib/http';
import * as interviewReadApi from '../lib/api/interview-read';

export const handler = apiHandler(interviewReadApi.getInterview, async ({ principal, params }) =>
  data(await getInterview(principal, params.id)),
);
