import { putInterviewPlan } from '../lib/domain/interview-plans';
import { apiHandler, data } from '../lib/http';
import * as plansApi from '../lib/api/interview-plans';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  plansApi.putInterviewPlan,
  async ({ principal, params, body }) => data(await putInterviewPlan(principal, params.id, body)),
  { idempotency },
);
