/**
 * The screening rejections run of `npm start` (the deployed stack's is an EventBridge schedule,
 * every minute), the same function as deployed, on a timer of SCREENING_INTERVAL_SECONDS (60
 * unless set; 0 turns it off). What it did goes to the console as counts.
 */
import { intervalSeconds, startScheduledTimer } from './scheduled-timer';

export function startScreeningRejectionsTimer(log: (line: string) => void): { stop(): void } {
  const seconds = intervalSeconds('SCREENING_INTERVAL_SECONDS', 60);
  if (seconds === 0) {
    log('screening rejections: timer off (SCREENING_INTERVAL_SECONDS=0)');
    return { stop: () => {} };
  }
  return startScheduledTimer(
    'screening rejections',
    seconds * 1000,
    [
      {
        module: 'screening-rejections',
        load: () => import('../functions/screening-rejections'),
        report: (r) => (r.due ? `${r.rejected} of ${r.due} due candidates rejected` : undefined),
      },
    ],
    log,
  );
}
