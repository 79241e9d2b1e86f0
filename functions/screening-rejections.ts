/**
 * The screening rejections run (an EventBridge schedule, every minute, in a nested stack of its
 * own; `npm start` runs it on a timer): every screening rejection whose delay has passed, run as
 * the actor `system` unless a person acted first (lib/domain/screening.ts). Logs counts only. A
 * failure throws, so the function's error alarm fires.
 */
import { rejectDueScreenings } from '../lib/domain/screening';
import { lambdaHandler } from '../lib/lambda';

export const handler = lambdaHandler(() => rejectDueScreenings());
