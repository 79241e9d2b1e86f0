import { cancelInterview } from '../lib/domain/interview-changes';
import { apiHandler, data } from '../lib/http';
import * as interviewsApi from '../lib/api/interviews';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  interviewsApi.cancelInterview,
  async ({ principal, params }) => data(await cancelInterview(principal, params.id)),
  { idempotency },
);
