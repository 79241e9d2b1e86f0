/**
 * The applicant's confirmation email, as words: the job's title, the workspace's (careers) name
 * and the withdraw link, nothing else. No name, not even the applicant's own: the address may not
 * be the poster's, and the mail should tell a stranger nothing but that someone used it. Pure.
 */
import type { OutgoingMail } from '../email/send';

export interface ConfirmationFacts {
  to: string;
  jobTitle: string;
  workspace: string;
  /** `<site>/careers/<slug>/withdraw?t=<token>` (lib/domain/withdraw-token.ts). */
  withdrawUrl: string;
  /** When the link stops working (ISO 8601). */
  withdrawUntil: string;
}

const html = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** One line for a header: control characters and runs of space become one space. */
const line = (s: string) => s.replace(/[\p{Cc}\s]+/gu, ' ').trim();

export function confirmationMail(f: ConfirmationFacts): OutgoingMail {
  const job = line(f.jobTitle) || 'a position';
  const org = line(f.workspace) || 'the employer';
  const until = f.withdrawUntil.slice(0, 10);
  const subject = `Your application for ${job} at ${org}`.slice(0, 900);
  const text = [
    `Thank you for applying for ${job} at ${org}. We received your application.`,
    '',
    'If you did not apply, or no longer want to, you can withdraw the application and have your personal data erased here:',
    f.withdrawUrl,
    `(the link works until ${until}; it asks you to confirm first).`,
    '',
    `This message was sent because this address was given in an application to ${org}.`,
  ].join('\n');
  const body =
    `<p>Thank you for applying for <strong>${html(job)}</strong> at ${html(org)}. We received your application.</p>` +
    `<p>If you did not apply, or no longer want to, you can <a href="${html(f.withdrawUrl)}">withdraw the application and have your personal data erased</a> ` +
    `(the link works until ${html(until)}; it asks you to confirm first).</p>` +
    `<p>This message was sent because this address was given in an application to ${html(org)}.</p>`;
  return { to: [f.to], subject, text, html: body, tags: { kind: 'application_confirmation' } };
}
