/**
 * The move to interviewed (an EventBridge schedule every few minutes in the stack; `npm start`
 * runs it on a timer): candidates whose last interview ended move to `interviewed`; see
 * lib/domain/interview-moves.ts. Logs counts only. A failure throws, so the function's error
 * alarm fires.
 */
import { moveInterviewedCandidates } from '../lib/domain/interview-moves';
import { lambdaHandler } from '../lib/lambda';

export const handler = lambdaHandler(() => moveInterviewedCandidates());
