import { getInterviewPlan } from '../lib/domain/interview-plans';
import { apiHandler, data } from '../lib/http';
import * as plansApi from '../lib/api/interview-plans';

export const handler = apiHandler(plansApi.getInterviewPlan, async ({ principal, params }) =>
  data(await getInterviewPlan(principal, params.id)),
);
