/** Invitation queue -> one email per recipient with the interview's calendar invitation (lib/domain/interview-invitations.ts). */
import { sendInterviewInvitations } from '../lib/domain/interview-invitations';
import { InvitationMessage } from '../lib/invitations/queue';
import { queueHandler } from '../lib/lambda';

export const handler = queueHandler(InvitationMessage, {
  record: async (m) => {
    await sendInterviewInvitations(m.body);
  },
});
