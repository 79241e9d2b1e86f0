/**
 * The calendar invitations of an interview change, pure: who gets one (each interviewer, and the
 * candidate when the scheduler asked), which method (REQUEST for a new or moved interview, CANCEL
 * for a cancelled one or an interviewer taken off it), and the message itself. Each recipient gets
 * a message of their own naming only them as attendee, so no one learns another's address. An
 * interviewer's invitation names the candidate and the step; the candidate's names the step and
 * the workspace; none carries a CV, a note or a scorecard.
 */
import { type CalendarInvitation, invitationIcs } from '../email/calendar';
import type { MailAttachment, OutgoingMail } from '../email/send';

/** An interview change as its change item holds it (lib/store/interviews.ts). */
export interface InvitationChange {
  interviewId: string;
  candidateId: string;
  sequence: number;
  event: 'interview.scheduled' | 'interview.updated' | 'interview.cancelled';
  status: 'scheduled' | 'cancelled';
  start: string;
  end: string;
  timeZone: string;
  stepName: string;
  location: string | null;
  interviewers: readonly string[];
  /** Interviewers this change took off the interview. */
  dropped: readonly string[];
  inviteCandidate: boolean;
  /** When the change was made: the message's DTSTAMP. */
  at: string;
}

export interface Recipient {
  /** A member id, or `candidate`: what the sent marks hold (never an address). */
  key: string;
  kind: 'interviewer' | 'candidate';
  email: string;
  method: 'REQUEST' | 'CANCEL';
}

export const CANDIDATE_KEY = 'candidate';

/**
 * The recipients of a change: interviewers by their member address (one that is no member any
 * more is left out), the candidate when invited and still reachable.
 */
export function recipientsOf(
  c: InvitationChange,
  emailOf: (userId: string) => string | undefined,
  candidateEmail: string | undefined,
): Recipient[] {
  const on: Recipient['method'] = c.status === 'cancelled' ? 'CANCEL' : 'REQUEST';
  const out: Recipient[] = [];
  for (const [ids, method] of [
    [c.interviewers, on],
    [c.dropped, 'CANCEL'],
  ] as const) {
    for (const id of ids) {
      const email = emailOf(id);
      if (email && !out.some((r) => r.key === id)) out.push({ key: id, kind: 'interviewer', email, method });
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

/** One line of at most `max` characters: names travel in a subject and a SUMMARY. */
const oneLine = (s: string, max = 120) => s.replace(/\s+/g, ' ').trim().slice(0, max);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** "Monday 30 November 2026, 10:00–11:00 (Europe/Berlin)": the time as the reader's invitation shows it. */
export function whenText(start: string, end: string, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${day.format(new Date(start))}, ${time.format(new Date(start))}–${time.format(new Date(end))} (${timeZone})`;
}

export interface MailContext {
  /** The sender (MAIL_FROM): the organizer, and the UID's domain. */
  from: string;
  workspace: string;
  /** The candidate's name, for the interviewers' invitation; absent once erased. */
  candidateName?: string;
}

/** The message for one recipient: text and HTML, the invitation as a calendar part and as a .ics file. */
export function invitationMail(c: InvitationChange, r: Recipient, ctx: MailContext): OutgoingMail {
  const step = oneLine(c.stepName);
  const workspace = oneLine(ctx.workspace);
  const title =
    r.kind === 'candidate' ? `${step} with ${workspace}` : `Interview: ${oneLine(ctx.candidateName || 'a candidate')} (${step})`;
  const prefix = r.method === 'CANCEL' ? 'Cancelled: ' : c.event === 'interview.updated' ? 'Updated: ' : '';
  const when = whenText(c.start, c.end, c.timeZone);
  const lines = [
    r.method === 'CANCEL' ? `This interview is cancelled: ${title}.` : `${title}.`,
    `When: ${when}`,
    ...(c.location && r.method === 'REQUEST' ? [`Where: ${c.location}`] : []),
    r.kind === 'interviewer' && r.method === 'REQUEST'
      ? 'The kit and your scorecard are under My interviews in the console.'
      : `Sent by ${workspace} through Talent Pipeline.`,
  ];
  const inv: CalendarInvitation = {
    uid: interviewUid(c.interviewId, ctx.from),
    sequence: c.sequence,
    method: r.method,
    start: Date.parse(c.start),
    end: Date.parse(c.end),
    timeZone: c.timeZone,
    summary: title,
    location: c.location,
    organizer: { name: workspace, email: addressOf(ctx.from) },
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
    subject: `${prefix}${title}`,
    text: lines.join('\n'),
    html: lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n'),
    attachments,
    tags: { kind: r.method === 'CANCEL' ? 'interview_cancel' : 'interview_invite' },
  };
}
