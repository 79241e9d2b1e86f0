/**
 * Mail on its way to the mail worker (functions/interview-invitations.ts): the fan-out queues one
 * message per interview change it reads from the stream, and one per candidate an application
 * made (the applicant's confirmation), so neither the API nor the application worker waits for
 * mail and an SES outage never fails them. The message holds ids only; the worker reads the item
 * it names, so a candidate erased meanwhile is never mailed.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { sqsClient } from '../aws/sqs';
import { config } from '../config';
import type { StreamChange } from '../records';

/** The worker's timeout (s): a message's few emails, each one SES call. */
export const INVITATION_WORKER_TIMEOUT_S = 30;
/** Receives of one message before it moves to the dead-letter queue: SES refusing it again and again. */
export const INVITATION_MAX_RECEIVES = 5;

export const InvitationMessage = z.object({
  v: z.literal(1),
  kind: z.literal('interview_invitation'),
  tenantId: z.string(),
  interviewId: z.string(),
  /** The interview's sequence after the change: which change item to send. */
  sequence: z.int(),
});
export type InvitationMessage = z.infer<typeof InvitationMessage>;

/** The confirmation to an applicant: the candidate an application made (it alone carries `application`). */
export const ConfirmationMessage = z.object({
  v: z.literal(1),
  kind: z.literal('application_confirmation'),
  tenantId: z.string(),
  candidateId: z.string(),
});
export type ConfirmationMessage = z.infer<typeof ConfirmationMessage>;

export const MailMessage = z.union([InvitationMessage, ConfirmationMessage]);
export type MailMessage = z.infer<typeof MailMessage>;

/**
 * The confirmation a table change stands for: the insert of a candidate made by an application.
 * A duplicate application inserts nothing, so it sends nothing (docs/api.md, "Applications").
 */
export function confirmationOf(change: StreamChange): ConfirmationMessage | undefined {
  const i = change.newImage;
  if (change.name !== 'INSERT' || i?.type !== 'candidate' || typeof i.application !== 'string' || typeof i.id !== 'string')
    return undefined;
  const tenantId = typeof i.tenant_id === 'string' ? i.tenant_id : String(i.PK ?? '').replace(/^T#/, '');
  return tenantId ? { v: 1, kind: 'application_confirmation', tenantId, candidateId: i.id } : undefined;
}

/** The message a table change stands for: an interview change's insert, none for anything else. */
export function invitationOf(change: StreamChange): InvitationMessage | undefined {
  const i = change.newImage;
  if (change.name !== 'INSERT' || i?.type !== 'interview_change') return undefined;
  if (typeof i.tenant_id !== 'string' || typeof i.interview_id !== 'string' || typeof i.sequence !== 'number') return undefined;
  return { v: 1, kind: 'interview_invitation', tenantId: i.tenant_id, interviewId: i.interview_id, sequence: i.sequence };
}

/** Queue the mail of a change (invitations, a confirmation), where this deploy sends mail (INVITATION_QUEUE_URL set). */
export async function queueInvitation(change: StreamChange): Promise<boolean> {
  const m = invitationOf(change) ?? confirmationOf(change);
  const queueUrl = config.invitationQueueUrl;
  if (!m || !queueUrl) return false;
  await sqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(m) }));
  return true;
}
