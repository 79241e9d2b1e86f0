/**
 * The offer expiry run of `npm start` (the deployed stack's is an EventBridge schedule, every five
 * minutes), the same function as deployed, on a timer of OFFER_EXPIRY_INTERVAL_SECONDS (300 unless
 * set; 0 turns it off). What it did goes to the console as counts.
 */
import { startScheduledTimer } from './scheduled-timer';

export function startOfferExpiryTimer(log: (line: string) => void): { stop(): void } {
  return startScheduledTimer(
    'offer expiry',
    { variable: 'OFFER_EXPIRY_INTERVAL_SECONDS', seconds: 300 },
    [
      {
        module: 'offer-expiry',
        load: () => import('../functions/offer-expiry'),
        report: (r) => (r.due ? `${r.expired} of ${r.due} due offers expired` : undefined),
      },
    ],
    log,
  );
}
