import { submitScorecard } from '../lib/domain/scorecards';
import { apiHandler, data, Reply } from '../lib/http';
import * as scorecardsApi from '../lib/api/scorecards';

export const handler = apiHandler(scorecardsApi.submitScorecard, async ({ principal, params, body }) => {
  const { scorecard, created } = await submitScorecard(principal, params.id, body);
  return new Reply(data(scorecard), { status: created ? 201 : 200 });
});
