/**
 * The offer expiry run (an EventBridge schedule, every five minutes, in a nested stack of its own;
 * `npm start` runs it on a timer): every sent offer past its `expires_at` becomes `expired`, as the
 * actor `system` (lib/domain/offer-expiry.ts). Logs counts only. A failure throws, so the
 * function's error alarm fires.
 */
import { expireDueOffers } from '../lib/domain/offer-expiry';
import { lambdaHandler } from '../lib/lambda';

export const handler = lambdaHandler(() => expireDueOffers());
