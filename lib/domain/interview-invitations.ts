/**
 * The invitation worker's rule (functions/interview-invitations.ts): one queued interview change
 * -> one email per recipient with its calendar invitation, through SES. The change item says what
 * to send; the members' addresses and own time zones, the workspace's name and, when the candidate is invited, their
 * name and address are read when sending, so an erased candidate is never written to. Each
 * recipient sent is marked; a retry (a failed send, a message delivered twice) sends only to those
 * not marked. Nothing personal is logged: ids and counts.
 */
import { sendEmail, mailFrom } from '../email/send';
import { logger } from '../logger';
import type { InvitationMessage } from '../invitations/queue';
import { getCandidate } from '../store/candidates';
import { getInvitationChange, markInvitationSent, sentInvitations } from '../store/interview-invitations';
import { getTenant } from '../store/tenants';
import { listUsers } from '../store/users';
import { CANDIDATE_KEY, invitationMail, recipientsOf } from './interview-invitation-rules';

export async function sendInterviewInvitations(m: InvitationMessage): Promise<{ sent: number; failed: number }> {
  const { tenantId, interviewId, sequence } = m;
  const change = await getInvitationChange(tenantId, interviewId, sequence);
  if (!change) return { sent: 0, failed: 0 };
  const [users, tenant, cand, sent] = await Promise.all([
    listUsers(tenantId),
    getTenant(tenantId),
    getCandidate(tenantId, change.candidateId),
    sentInvitations(tenantId, interviewId, sequence),
  ]);
  const reachable = cand && !cand.erased_at;
  const members = new Map(users.map((u) => [u.id, u]));
  const todo = recipientsOf(
    change,
    (id) => members.get(id)?.email,
    reachable && typeof cand.email === 'string' ? cand.email : undefined,
    (id) => members.get(id)?.time_zone,
  ).filter((r) => !sent.has(r.key));
  const ctx = {
    from: mailFrom(),
    workspace: tenant?.name ?? 'Talent Pipeline',
    ...(reachable && typeof cand.name === 'string' && { candidateName: cand.name }),
  };
  const results = await Promise.allSettled(
    todo.map(async (r) => {
      await sendEmail(invitationMail(change, r, ctx));
      await markInvitationSent(tenantId, interviewId, sequence, r.key);
    }),
  );
  const failed = results.filter((x) => x.status === 'rejected');
  logger.info('interview invitations sent', {
    interview_id: interviewId,
    sequence,
    sent: results.length - failed.length,
    failed: failed.length,
    already_sent: sent.size,
    candidate: todo.some((r) => r.key === CANDIDATE_KEY),
  });
  // The message comes again; the marked recipients are skipped then.
  if (failed.length)
    throw new Error(`${failed.length} of ${todo.length} invitations were not sent (${(failed[0] as PromiseRejectedResult).reason?.name})`);
  return { sent: todo.length, failed: 0 };
}
