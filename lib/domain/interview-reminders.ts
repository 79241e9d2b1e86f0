/**
 * The scorecard reminders (functions/scorecard-reminders.ts, every few minutes): for each
 * `remind` due item (lib/store/interview-due.ts), each interviewer whose scorecard of the
 * interview is missing gets one email (lib/domain/interview-reminder-mail.ts); a marker claimed
 * before sending makes it at most one. An item whose interview was cancelled or moved is dropped
 * (the move wrote the new ones).
 */
// CONSOLE_URL through lib/env.ts rather than lib/config.ts, which every bundle carries: only the reminders read it.
import { optional } from '../env';
import { logger } from '../logger';
import { claimReminder, releaseReminder, type DueItem } from '../store/interview-due';
import { getInterview } from '../store/interviews';
import { queryCandidateScorecards } from '../store/scorecards';
import { listUsers } from '../store/users';
import { runDueItems } from './interview-due-run';
import { missingScorecards, reminderAt } from './interview-follow-up-rules';
import { reminderMail } from './interview-reminder-mail';

export type Send = (mail: ReturnType<typeof reminderMail>) => Promise<unknown>;

export interface ReminderRun {
  due: number;
  reminded: number;
}

/** The `remind` item: one email to each interviewer whose scorecard is missing. The count sent. */
async function remind(item: DueItem, nowMs: number, send: Send | undefined): Promise<number> {
  const iv = await getInterview(item.tenantId, item.interviewId);
  if (iv?.status !== 'scheduled' || Date.parse(reminderAt(iv.end, iv.time_zone)) > nowMs) return 0;
  const missing = missingScorecards(iv, await queryCandidateScorecards(item.tenantId, iv.candidate_id));
  if (!missing.length) return 0;
  if (!send) {
    logger.warn('interview reminders are off: no mail sender (MAIL_FROM) is set', { missing: missing.length });
    return 0;
  }
  const members = new Map((await listUsers(item.tenantId)).map((u) => [u.id, u]));
  let sent = 0;
  for (const userId of missing) {
    const member = members.get(userId);
    if (!member || member.deactivated_at !== undefined) continue;
    if (!(await claimReminder(item.tenantId, iv.id, userId, new Date(nowMs).toISOString()))) continue;
    try {
      await send(reminderMail(iv, member.email, optional('CONSOLE_URL')));
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
