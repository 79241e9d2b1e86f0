/**
 * The offer expiry run of `npm start` (the deployed stack's is an EventBridge schedule, every five
 * minutes), the same function as deployed, on a timer of OFFER_EXPIRY_INTERVAL_SECONDS (300 unless
 * set; 0 turns it off). What it did goes to the console as counts.
 */
import { intervalSeconds, startScheduledTimer } from './scheduled-timer';

export function startOfferExpiryTimer(log: (line: string) => void): { stop(): void } {
  const seconds = intervalSeconds('OFFER_EXPIRY_INTERVAL_SECONDS', 300);
  if (seconds === 0) {
    log('offer expiry: timer off (OFFER_EXPIRY_INTERVAL_SECONDS=0)');
    return { stop: () => {} };
  }
  return startScheduledTimer(
    'offer expiry',
    seconds * 1000,
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
