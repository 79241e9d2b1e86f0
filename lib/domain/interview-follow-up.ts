/**
 * The interview follow-ups (an EventBridge schedule deployed; a timer under `npm start`): two
 * runs over the interviews' due items (lib/store/interview-due.ts), each its own function so that
 * neither bundle carries the other's code: the move to `interviewed` after the last interview
 * (lib/domain/interview-moves.ts, functions/interview-moves.ts) and the scorecard reminders at
 * 9:00 the first working day after (lib/domain/interview-reminders.ts,
 * functions/scorecard-reminders.ts). This module runs both, as tests do; no function imports it.
 */
import { config } from '../config';
import { moveInterviewedCandidates } from './interview-moves';
import { sendScorecardReminders, type Send } from './interview-reminders';

/** The mail sender, when this process may send mail (MAIL_FROM set); loaded only then, as lib/email stops without it. */
async function mailSender(): Promise<Send | undefined> {
  try {
    void config.mailFrom; // lib/config.ts throws, naming MAIL_FROM, when it is not set.
  } catch {
    return undefined;
  }
  const { sendEmail } = await import('../email/send');
  return sendEmail;
}

export interface FollowUpRun {
  due: number;
  moved: number;
  reminded: number;
}

/** Both runs at `nowMs`, at once (as the two schedules may); both end even when one fails, and then it throws. */
export async function runInterviewFollowUps(nowMs = Date.now(), opts: { send?: Send } = {}): Promise<FollowUpRun> {
  const [moves, reminders] = await Promise.allSettled([
    moveInterviewedCandidates(nowMs),
    sendScorecardReminders(nowMs, opts.send ?? (await mailSender())),
  ]);
  if (moves.status === 'rejected') throw moves.reason;
  if (reminders.status === 'rejected') throw reminders.reason;
  return { due: moves.value.due + reminders.value.due, moved: moves.value.moved, reminded: reminders.value.reminded };
}
