/**
 * Mail queue -> email through SES: one email per recipient with the interview's calendar
 * invitation (lib/domain/interview-invitations.ts), or an applicant's confirmation with its
 * withdraw link (lib/domain/application-confirmation.ts).
 */
import { sendApplicationConfirmation } from '../lib/domain/application-confirmation';
import { sendInterviewInvitations } from '../lib/domain/interview-invitations';
import { MailMessage } from '../lib/invitations/queue';
import { queueHandler } from '../lib/lambda';

export const handler = queueHandler(MailMessage, {
  record: async (m) => {
    if (m.body.kind === 'application_confirmation') await sendApplicationConfirmation(m.body);
    else await sendInterviewInvitations(m.body);
  },
});
