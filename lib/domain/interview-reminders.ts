/**
 * The scorecard reminders (functions/scorecard-reminders.ts, every few minutes): for each
 * `remind` due item (lib/store/interview-due.ts), each interviewer whose scorecard of the
 * interview is missing and whose reminder time has come, in their own zone as it is set now (else
 * the interview's), gets one email (lib/domain/interview-reminder-mail.ts); a marker claimed
 * before sending makes it at most one. The others' time comes later: the item comes back then
 * (rearmReminder), so a zone changed after the booking counts. An item whose interview was
 * cancelled or moved is dropped (the move wrote the new ones).
 */
// CONSOLE_URL through lib/env.ts rather than lib/config.ts, which every bundle carries: only the reminders read it.
import { raw } from '../env';
import { logger } from '../logger';
import { claimReminder, rearmReminder, releaseReminder, type DueItem } from '../store/interview-due';
import { getInterview } from '../store/interviews';
import { queryCandidateScorecards } from '../store/scorecards';
import { listUsers } from '../store/users';
import { runDueItems } from './interview-due-run';
import { dueReminders, earliestReminderAt, missingScorecards } from './interview-follow-up-rules';
import { reminderMail } from './interview-reminder-mail';

export type Send = (mail: ReturnType<typeof reminderMail>) => Promise<unknown>;

export interface ReminderRun {
  due: number;
  reminded: number;
}

/** The `remind` item: one email to each interviewer whose scorecard is missing. The count sent. */
async function remind(item: DueItem, nowMs: number, send: Send | undefined): Promise<number> {
  const iv = await getInterview(item.tenantId, item.interviewId);
  if (iv?.status !== 'scheduled' || Date.parse(earliestReminderAt(iv.end)) > nowMs) return 0;
  // A run's own item of an earlier schedule: the reschedule wrote the interview's new ones.
  if (item.end !== undefined && item.end !== iv.end) return 0;
  const missing = missingScorecards(iv, await queryCandidateScorecards(item.tenantId, iv.candidate_id));
  if (!missing.length) return 0;
  if (!send) {
    logger.warn('interview reminders are off: no mail sender (MAIL_FROM) is set', { missing: missing.length });
    return 0;
  }
  const members = new Map((await listUsers(item.tenantId)).map((u) => [u.id, u]));
  // A former or deactivated member gets none, now or later.
  const reachable = missing.filter((id) => members.has(id) && members.get(id)!.deactivated_at === undefined);
  const { due, next } = dueReminders(iv, reachable, (id) => members.get(id)?.time_zone, nowMs);
  // Put before sending: a failed send keeps this item, and the later ones are not lost either way.
  if (next) await rearmReminder(item.tenantId, iv.id, iv.end, next);
  let sent = 0;
  for (const userId of due) {
    const member = members.get(userId)!;
    if (!(await claimReminder(item.tenantId, iv.id, userId, new Date(nowMs).toISOString()))) continue;
    try {
      await send(reminderMail(iv, member.email, raw('CONSOLE_URL'), member.time_zone));
      sent++;
    } catch (err) {
      await releaseReminder(item.tenantId, iv.id, userId);
      throw err;
    }
  }
  return sent;
}

/**
 * One run at `nowMs`: every `remind` item due by then, sent with `send` (the function passes
 * lib/email's sender, imported statically: loaded lazily from here, it bundled ~30 KB more).
 * Without a sender nothing is sent and the items go.
 */
export async function sendScorecardReminders(nowMs: number, send: Send | undefined): Promise<ReminderRun> {
  const { due, done } = await runDueItems('remind', nowMs, (item) => remind(item, nowMs, send));
  return { due, reminded: done };
}
