/**
 * The interview follow-up runs of `npm start` (the deployed stack's are two EventBridge schedules
 * every five minutes), the same two functions as deployed, every minute here so a move or a
 * reminder shows soon; one tick at a time, the move then the reminders. Reminders go to the local
 * SES (its mail viewer shows them). What they did goes to the console as counts.
 */
import { startScheduledTimer } from './scheduled-timer';

export function startInterviewFollowUpTimer(log: (line: string) => void): { stop(): void } {
  log('interview follow-ups run every minute (moves to interviewed, scorecard reminders)');
  return startScheduledTimer(
    'interview follow-ups',
    60_000,
    [
      {
        module: 'interview-moves',
        load: () => import('../functions/interview-moves'),
        report: (r) => (r.moved ? `${r.moved} candidates moved to interviewed` : undefined),
      },
      {
        module: 'scorecard-reminders',
        load: () => import('../functions/scorecard-reminders'),
        report: (r) => (r.reminded ? `${r.reminded} scorecard reminders sent` : undefined),
      },
    ],
    log,
  );
}
