/**
 * The offer expiry run of `npm start` (the deployed stack's is an EventBridge schedule, every five
 * minutes), the same function as deployed, on a timer of OFFER_EXPIRY_INTERVAL_SECONDS (300 unless
 * set; 0 turns it off). What it did goes to the console as counts.
 */
import { lambdaContext } from './events';
import { invocation } from './invocation';

export function startOfferExpiryTimer(log: (line: string) => void): { stop(): void } {
  const raw = process.env.OFFER_EXPIRY_INTERVAL_SECONDS ?? '300';
  const seconds = /^\d+$/.test(raw) ? Number(raw) : 300;
  if (seconds === 0) {
    log('offer expiry: timer off (OFFER_EXPIRY_INTERVAL_SECONDS=0)');
    return { stop: () => {} };
  }
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const { handler } = await import('../functions/offer-expiry');
      const context = lambdaContext('offer-expiry', 60_000);
      const r = (await invocation(context.awsRequestId, () => handler({} as never, context))) as { due: number; expired: number };
      if (r.due) log(`offer expiry: ${r.expired} of ${r.due} due offers expired`);
    } catch (err) {
      log(`offer expiry: the run failed: ${(err as Error).message}`);
    } finally {
      running = false;
    }
  }, seconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
