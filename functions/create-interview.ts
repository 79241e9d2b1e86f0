import { createInterview } from '../lib/domain/interviews';
import { apiHandler, data, Reply } from '../lib/http';
import * as interviewsApi from '../lib/api/interviews';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  interviewsApi.createInterview,
  async ({ principal, params, body }) => {
    const { interview, created } = await createInterview(principal, params.id, body);
    return new Reply(data(interview), { status: created ? 201 : 200 });
  },
  { idempotency },
);
