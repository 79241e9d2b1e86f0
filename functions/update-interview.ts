import { updateInterview } from '../lib/domain/interview-changes';
import { apiHandler, data } from '../lib/http';
import * as interviewsApi from '../lib/api/interviews';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  interviewsApi.updateInterview,
  async ({ principal, params, body }) => data(await updateInterview(principal, params.id, body)),
  { idempotency },
);
