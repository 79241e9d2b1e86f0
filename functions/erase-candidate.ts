import { eraseCandidate } from '../lib/domain/erasure';
import { apiHandler, data } from '../lib/http';
import * as candidatesApi from '../lib/api/candidates';

export const handler = apiHandler(candidatesApi.eraseCandidate, async ({ principal, params }) =>
  data(await eraseCandidate(principal, params.id)),
);
