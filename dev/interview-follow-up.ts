/**
 * The interview follow-up run of `npm start` (the deployed stack's is an EventBridge schedule every
 * five minutes), the same function as deployed, every minute here so a move or a reminder shows
 * soon; one run at a time. Reminders go to the local SES (its mail viewer shows them). What it did
 * goes to the console as counts.
 */
import { lambdaContext } from './events';
import { invocation } from './invocation';

const EVERY_MS = 60_000;

export function startInterviewFollowUpTimer(log: (line: string) => void): { stop(): void } {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const { handler } = await import('../functions/interview-follow-up');
      const context = lambdaContext('interview-follow-up', 120_000);
      const run = (await invocation(context.awsRequestId, () => handler({} as never, context))) as { moved: number; reminded: number };
      if (run.moved || run.reminded)
        log(`interview follow-ups: ${run.moved} candidates moved to interviewed, ${run.reminded} reminders sent`);
    } catch (err) {
      log(`interview follow-ups: the run failed: ${(err as Error).message}`);
    } finally {
      running = false;
    }
  }, EVERY_MS);
  timer.unref();
  log('interview follow-ups run every minute (moves to interviewed, scorecard reminders)');
  return { stop: () => clearInterval(timer) };
}
