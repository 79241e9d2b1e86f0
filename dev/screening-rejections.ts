/**
 * The screening rejections run of `npm start` (the deployed stack's is an EventBridge schedule,
 * every minute), the same function as deployed, on a timer of SCREENING_INTERVAL_SECONDS (60
 * unless set; 0 turns it off). What it did goes to the console as counts.
 */
import { lambdaContext } from './events';
import { invocation } from './invocation';

export function startScreeningRejectionsTimer(log: (line: string) => void): { stop(): void } {
  const raw = process.env.SCREENING_INTERVAL_SECONDS ?? '60';
  const seconds = /^\d+$/.test(raw) ? Number(raw) : 60;
  if (seconds === 0) {
    log('screening rejections: timer off (SCREENING_INTERVAL_SECONDS=0)');
    return { stop: () => {} };
  }
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const { handler } = await import('../functions/screening-rejections');
      const context = lambdaContext('screening-rejections', 60_000);
      const r = (await invocation(context.awsRequestId, () => handler({} as never, context))) as { due: number; rejected: number };
      if (r.due) log(`screening rejections: ${r.rejected} of ${r.due} due candidates rejected`);
    } catch (err) {
      log(`screening rejections: the run failed: ${(err as Error).message}`);
    } finally {
      running = false;
    }
  }, seconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
