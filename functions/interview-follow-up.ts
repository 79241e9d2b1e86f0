/**
 * The interview follow-up run (an EventBridge schedule every few minutes in the stack; `npm start`
 * runs it on a timer): candidates whose last interview ended move to interviewed, and missing
 * scorecards are reminded; see lib/domain/interview-follow-up.ts. Logs counts only. A failure
 * throws, so the function's error alarm fires.
 */
import { runInterviewFollowUps } from '../lib/domain/interview-follow-up';
import { lambdaHandler } from '../lib/lambda';

export const handler = lambdaHandler(() => runInterviewFollowUps());
