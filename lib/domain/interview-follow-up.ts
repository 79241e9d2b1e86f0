/**
 * The interview follow-up run, every few minutes (an EventBridge schedule deployed; a timer under
 * `npm start`): the interviews' due items (lib/store/interview-due.ts) due by now, one Query, each
 * handled and then deleted.
 * - `ended`: when every scheduled interview of the candidate has ended, a candidate still in
 *   `interview_scheduled` moves to `interviewed`, a normal stage move (counters, events, audit)
 *   with the actor `system`, unless the workspace turned `auto_interview_stages` off. The move is
 *   conditional on the stage read, so two runs at once make one move, and a candidate moved on by
 *   someone else is left alone.
 * - `remind`: each interviewer whose scorecard of the interview is missing gets one email
 *   (lib/domain/interview-reminder-mail.ts); a marker claimed before sending makes it at most one.
 * An item whose interview was cancelled or moved is dropped (the move wrote the new ones). A
 * failed item stays for the next run, and the run then fails (its error alarm fires). Counts only
 * are logged.
 */
import type { Interview } from '../api/interviews';
import { StaleStageError } from '../errors';
import { logger } from '../logger';
import { candidateStage, getCandidate } from '../store/candidates';
import { claimReminder, dueDone, dueInterviewItems, releaseReminder, type DueItem } from '../store/interview-due';
import { getInterview, queryInterviewPage } from '../store/interviews';
import { queryCandidateScorecards } from '../store/scorecards';
import { getStats } from '../store/stats';
import { listUsers } from '../store/users';
import { moveCandidate } from './candidate-writes';
import { allEnded, missingScorecards, reminderAt } from './interview-follow-up-rules';
import { reminderMail } from './interview-reminder-mail';

/** The actor of the moves this run makes, as the audit log names it. */
export const FOLLOW_UP = { type: 'system', id: 'interview-follow-up', name: 'interview follow-up' } as const;
/** Due items per run: the rest are the next run's. */
export const MAX_DUE_PER_RUN = 500;
const AT_ONCE = 10;

export interface FollowUpRun {
  due: number;
  moved: number;
  reminded: number;
}

/** Every interview of the candidate, each read consistently (the candidate's view is an index, eventually consistent). */
async function candidateInterviews(tenantId: string, candidateId: string): Promise<Interview[]> {
  const listed: Interview[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await queryInterviewPage(tenantId, { by: 'candidate', id: candidateId }, { limit: 100, startKey });
    listed.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  const read = await Promise.all(listed.map((i) => getInterview(tenantId, i.id)));
  return read.filter((i): i is Interview => i !== undefined);
}

/** The `ended` item: the move to interviewed once the candidate's last scheduled interview has ended. */
async function followEnded(item: DueItem, nowMs: number): Promise<boolean> {
  const iv = await getInterview(item.tenantId, item.interviewId);
  // A cancelled interview's item asks whether the others have all ended; a scheduled one not yet
  // ended was moved later (its new item is due then).
  if (!iv || (iv.status === 'scheduled' && Date.parse(iv.end) > nowMs)) return false;
  const [stats, cand] = await Promise.all([getStats(item.tenantId), getCandidate(item.tenantId, iv.candidate_id)]);
  if (stats.item.auto_interview_stages === false || !cand || cand.erased_at) return false;
  if (candidateStage(cand) !== 'interview_scheduled') return false;
  if (!allEnded(await candidateInterviews(item.tenantId, iv.candidate_id), nowMs)) return false;
  try {
    const { after } = await moveCandidate(item.tenantId, iv.candidate_id, 'interviewed', () => new Date(nowMs).toISOString(), {
      fromStage: 'interview_scheduled',
      audit: { action: 'candidate.stage_changed', actor: FOLLOW_UP, target: { type: 'candidate', id: iv.candidate_id } },
    });
    return after !== undefined;
  } catch (err) {
    // Someone moved the candidate first (another run, or a recruiter): theirs stands.
    if (err instanceof StaleStageError) return false;
    throw err;
  }
}

type Send = (mail: ReturnType<typeof reminderMail>) => Promise<unknown>;

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
      await send(reminderMail(iv, member.email, process.env.CONSOLE_URL));
      sent++;
    } catch (err) {
      await releaseReminder(item.tenantId, iv.id, userId);
      throw err;
    }
  }
  return sent;
}

/** The mail sender, when this process may send mail (MAIL_FROM set); loaded only then, as it stops without it. */
async function mailSender(): Promise<Send | undefined> {
  if (!process.env.MAIL_FROM) return undefined;
  const { sendEmail } = await import('../email/send');
  return sendEmail;
}

/** One run at `nowMs`: every item due by then, at most MAX_DUE_PER_RUN, AT_ONCE at a time. */
export async function runInterviewFollowUps(nowMs = Date.now(), opts: { send?: Send } = {}): Promise<FollowUpRun> {
  const due = await dueInterviewItems(new Date(nowMs).toISOString(), MAX_DUE_PER_RUN);
  const send = opts.send ?? (due.some((d) => d.kind === 'remind') ? await mailSender() : undefined);
  const run: FollowUpRun = { due: due.length, moved: 0, reminded: 0 };
  const failed: string[] = [];
  for (let i = 0; i < due.length; i += AT_ONCE) {
    await Promise.all(
      due.slice(i, i + AT_ONCE).map(async (item) => {
        try {
          if (item.kind === 'ended') run.moved += (await followEnded(item, nowMs)) ? 1 : 0;
          else run.reminded += await remind(item, nowMs, send);
          await dueDone(item.sk);
        } catch (err) {
          // Kept for the next run; the others go on. By name only.
          failed.push((err as Error).name);
        }
      }),
    );
  }
  if (run.due) logger.info('interview follow-ups', { ...run, failed: failed.length });
  if (failed.length) throw new Error(`${failed.length} interview follow-ups failed (${[...new Set(failed)].join(', ')}); retried next run`);
  return run;
}
