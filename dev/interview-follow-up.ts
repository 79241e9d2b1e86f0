/**
 * The interview follow-up runs of `npm start` (the deployed stack's are two EventBridge schedules
 * every five minutes), the same two functions as deployed, every minute here so a move or a
 * reminder shows soon; one tick at a time, the move then the reminders. Reminders go to the local
 * SES (its mail viewer shows them). What they did goes to the console as counts. The timer is
 * unref'd: the one signal that stops `npm start` stops it.
 */
import { lambdaContext } from './events';
import { invocation } from './invocation';

const EVERY_MS = 60_000;

/** One of the two functions, as Lambda would invoke it from its schedule: its counts. */
async function invoke(module: string, handler: (event: never, context: never) => Promise<unknown>): Promise<Record<string, number>> {
  const context = lambdaContext(module, 120_000);
  return (await invocation(context.awsRequestId, () => handler({} as never, context as never))) as Record<string, number>;
}

export function startInterviewFollowUpTimer(log: (line: string) => void): { stop(): void } {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const moves = await invoke('interview-moves', (await import('../functions/interview-moves')).handler);
      if (moves.moved) log(`interview follow-ups: ${moves.moved} candidates moved to interviewed`);
    } catch (err) {
      log(`interview follow-ups: the move run failed: ${(err as Error).message}`);
    }
    try {
      const reminders = await invoke('scorecard-reminders', (await import('../functions/scorecard-reminders')).handler);
      if (reminders.reminded) log(`interview follow-ups: ${reminders.reminded} scorecard reminders sent`);
    } catch (err) {
      log(`interview follow-ups: the reminders run failed: ${(err as Error).message}`);
    } finally {
      running = false;
    }
  }, EVERY_MS);
  timer.unref();
  log('interview follow-ups run every minute (moves to interviewed, scorecard reminders)');
  return { stop: () => clearInterval(timer) };
}
