import { listCandidateScorecards } from '../lib/domain/scorecards';
import { apiHandler } from '../lib/http';
import * as scorecardsApi from '../lib/api/scorecards';

export const handler = apiHandler(scorecardsApi.listCandidateScorecards, async ({ principal, params }) => ({
  data: await listCandidateScorecards(principal, params.id),
}));
