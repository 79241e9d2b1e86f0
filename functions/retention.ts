/**
 * The daily retention run (an EventBridge schedule in the stack; `npm start` runs it on a timer):
 * every workspace with a rule on, its matches erased as the actor `system` with the rule's name.
 * Every minute, a second schedule runs the erasures' due follow-up sweeps instead.
 * Logs counts only. A failure throws, so the function's error alarm fires.
 */
import { retention } from '../lib/domain/retention';
import { lambdaHandler } from '../lib/lambda';

export const handler = lambdaHandler(retention);
