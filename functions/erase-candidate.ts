import { eraseCandidate } from '../lib/domain/erasure';
import { apiHandler, data } from '../lib/http';
import * as erasureApi from '../lib/api/erasure';

export const handler = apiHandler(erasureApi.eraseCandidate, async ({ principal, params }) =>
  data(await eraseCandidate(principal, params.id)),
);
