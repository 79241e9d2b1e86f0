/**
 * The mail worker's confirmation to an applicant (functions/interview-invitations.ts; the fan-out
 * queues it when an application's candidate is inserted, lib/invitations/queue.ts): the job, the
 * workspace and a signed withdraw link (lib/domain/withdraw-token.ts) to the careers site, whose
 * origin the worker is given as CONSOLE_URL. Read when sending, so an applicant erased meanwhile
 * is never mailed; marked once sent, so a message delivered twice mails once. Nothing personal is
 * logged: ids and outcomes.
 */
import { config } from '../config';
import { sendEmail } from '../email/send';
import { raw } from '../env';
import type { ConfirmationMessage } from '../invitations/queue';
import { logger } from '../logger';
import { getCareersSettings } from '../store/careers';
import { getCandidate } from '../store/candidates';
import { confirmationSent, markConfirmationSent } from '../store/confirmations';
import { getTenant } from '../store/tenants';
import { confirmationMail } from './application-confirmation-rules';
import { issueWithdrawToken, WITHDRAW_TOKEN_TTL_MS } from './withdraw-token';

export type ConfirmationOutcome = 'sent' | 'already_sent' | 'gone';

/** The withdraw link of a candidate on the careers site at `origin`. */
export const withdrawUrl = (origin: string, slug: string, token: string) =>
  `${origin.replace(/\/+$/, '')}/careers/${encodeURIComponent(slug)}/withdraw?t=${encodeURIComponent(token)}`;

export async function sendApplicationConfirmation(m: ConfirmationMessage, nowMs = Date.now()): Promise<ConfirmationOutcome> {
  const { tenantId, candidateId } = m;
  const [cand, tenant, brand, sent] = await Promise.all([
    getCandidate(tenantId, candidateId),
    getTenant(tenantId),
    getCareersSettings(tenantId),
    confirmationSent(tenantId, candidateId),
  ]);
  const outcome = await (async (): Promise<ConfirmationOutcome> => {
    if (sent) return 'already_sent';
    if (!cand || cand.erased_at || typeof cand.email !== 'string' || !tenant) return 'gone';
    // Without the site's origin there is no link to give: the message comes again (and, never
    // given one, goes to the dead-letter queue, whose alarm says so) rather than a mail without it.
    const origin = raw('CONSOLE_URL');
    if (!origin) throw new Error('CONSOLE_URL is not set: a confirmation needs the careers site for its withdraw link');
    const token = issueWithdrawToken(config.formTokenSecret, tenant.slug, candidateId, nowMs);
    await sendEmail(
      confirmationMail({
        to: cand.email,
        jobTitle: typeof cand.req_title === 'string' ? cand.req_title : '',
        workspace: brand?.careers_name ?? tenant.name,
        withdrawUrl: withdrawUrl(origin, tenant.slug, token),
        withdrawUntil: new Date(nowMs + WITHDRAW_TOKEN_TTL_MS).toISOString(),
      }),
    );
    await markConfirmationSent(tenantId, candidateId, nowMs);
    return 'sent';
  })();
  logger.info('application confirmation', { candidate_id: candidateId, outcome });
  return outcome;
}
