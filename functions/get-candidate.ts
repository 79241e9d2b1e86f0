import { getCandidate } from '../lib/domain/candidates';
import { apiHandler, data } from '../lib/http';
import * as candidatesApi from '../lib/api/candidate-reads';

export const handler = apiHandler(candidatesApi.getCandidate, async ({ principal, params }) =>
  data(await getCandidate(principal, params.id)),
);
