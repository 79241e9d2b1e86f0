import { listInterviewScorecards } from '../lib/domain/scorecards';
import { apiHandler } from '../lib/http';
import * as scorecardsApi from '../lib/api/scorecards';

export const handler = apiHandler(scorecardsApi.listInterviewScorecards, async ({ principal, params }) => ({
  data: await listInterviewScorecards(principal, params.id),
}));
