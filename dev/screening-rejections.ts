/**
 * The screening rejections run of `npm start` (the deployed stack's is an EventBridge schedule,
 * every minute), the same function as deployed, on a timer of SCREENING_INTERVAL_SECONDS (60
 * unless set; 0 turns it off). What it did goes to the console as counts.
 */
import { startScheduledTimer } from './scheduled-timer';

export function startScreeningRejectionsTimer(log: (line: string) => void): { stop(): void } {
  return startScheduledTimer(
    'screening rejections',
    { variable: 'SCREENING_INTERVAL_SECONDS', seconds: 60 },
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
