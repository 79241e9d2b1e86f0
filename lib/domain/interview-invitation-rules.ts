/**
 * The calendar invitations of an interview change, pure: who gets one (each interviewer, and the
 * candidate when the scheduler asked), which method (REQUEST for a new or moved interview, CANCEL
 * for a cancelled one or an interviewer taken off it), and the message itself (its words from
 * lib/domain/interview-invitation-text.ts, which the console's preview shares). Each recipient gets
 * a message of their own naming only them as attendee, so no one learns another's address. An
 * interviewer's invitation names the candidate and the step; the candidate's names the step and
 * the workspace; none carries a CV, a note or a scorecard.
 */
import { type CalendarInvitation, invitationIcs } from '../email/calendar';
import type { MailAttachment, OutgoingMail } from '../email/send';
import { type InvitationChange, invitationText, type MailContext, oneLine, type Recipient } from './interview-invitation-text';

export type { InvitationChange, MailContext, Recipient } from './interview-invitation-text';

export const CANDIDATE_KEY = 'candidate';

/**
 * The recipients of a change: interviewers by their member address (one that is no member any
 * more is left out), the candidate when invited and still reachable.
 */
export function recipientsOf(
  c: InvitationChange,
  emailOf: (userId: string) => string | undefined,
  candidateEmail: string | undefined,
  zoneOf: (userId: string) => string | undefined = () => undefined,
): Recipient[] {
  const on: Recipient['method'] = c.status === 'cancelled' ? 'CANCEL' : 'REQUEST';
  const out: Recipient[] = [];
  for (const [ids, method] of [
    [c.interviewers, on],
    [c.dropped, 'CANCEL'],
  ] as const) {
    for (const id of ids) {
      const email = emailOf(id);
      const timeZone = zoneOf(id);
      if (email && !out.some((r) => r.key === id)) out.push({ key: id, kind: 'interviewer', email, method, ...(timeZone && { timeZone }) });
    }
  }
  if (c.inviteCandidate && candidateEmail) out.push({ key: CANDIDATE_KEY, kind: 'candidate', email: candidateEmail, method: on });
  return out;
}

/** The address part of a sender such as `Talent Pipeline <no-reply@talent.example>`. */
export const addressOf = (from: string): string => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

/** The UID every message about an interview carries: stable across its changes (RFC 5545 3.8.4.7). */
export const interviewUid = (interviewId: string, from: string): string =>
  `${interviewId}@${addressOf(from).split('@')[1] ?? 'talent-pipeline'}`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The message for one recipient: text and HTML, the invitation as a calendar part and as a .ics file. */
export function invitationMail(c: InvitationChange, r: Recipient, ctx: MailContext): OutgoingMail {
  const { title, subject, lines } = invitationText(c, r, ctx);
  const inv: CalendarInvitation = {
    uid: interviewUid(c.interviewId, ctx.from),
    sequence: c.sequence,
    method: r.method,
    start: Date.parse(c.start),
    end: Date.parse(c.end),
    timeZone: c.timeZone,
    summary: title,
    location: c.location,
    organizer: { name: oneLine(ctx.workspace), email: addressOf(ctx.from) },
    attendees: [{ email: r.email }],
    stamp: Date.parse(c.at),
  };
  const ics = invitationIcs(inv);
  const method = r.method === 'CANCEL' ? 'CANCEL' : 'REQUEST';
  const attachments: MailAttachment[] = [
    // The part calendar clients act on (RFC 6047): shown as an invitation with its buttons.
    { filename: 'invite.ics', contentType: `text/calendar; method=${method}; charset=UTF-8`, content: ics, disposition: 'inline' },
    // The same event as a file, for clients that only import attachments.
    { filename: 'invite.ics', contentType: 'application/ics', content: ics, disposition: 'attachment' },
  ];
  return {
    to: [r.email],
    subject,
    text: lines.join('\n'),
    html: lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n'),
    attachments,
    tags: { kind: r.method === 'CANCEL' ? 'interview_cancel' : 'interview_invite' },
  };
}
