/**
 * The daily retention run (an EventBridge schedule in the stack; `npm start` runs it on a timer):
 * every workspace with a rule on, its matches erased as the actor `system` with the rule's name.
 * Logs counts only. A failure throws, so the function's error alarm fires.
 */
import { runAllRetention } from '../lib/domain/retention';
import { logger } from '../lib/logger';

export const handler = async () => {
  const total = await runAllRetention();
  logger.info('retention runs done', total);
  return total;
};
