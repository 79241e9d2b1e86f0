import { listCandidates } from '../lib/domain/candidates';
import { apiHandler, page } from '../lib/http';
import * as candidatesApi from '../lib/api/candidate-reads';

export const handler = apiHandler(candidatesApi.listCandidates, async ({ principal, query }) =>
  page(await listCandidates(principal, query)),
);
