/**
 * What an interview invitation says, pure and without the calendar part: who reads it (an
 * interviewer or the candidate), its subject, and its lines, the time in the reader's own zone
 * and, where the interview was booked in another, there too. The invitation worker's message
 * (lib/domain/interview-invitation-rules.ts, which adds the iCalendar part) and the console's
 * preview on the schedule form (console/src/invite-preview.tsx) are both made by `invitationText`,
 * so what a recruiter previews is what is sent. Intl only: the console bundles it as it is.
 */

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
  /** The member's own zone, when they set one: their message reads the time in it. */
  timeZone?: string;
}

export interface MailContext {
  /** The sender (MAIL_FROM): the organizer, and the UID's domain. */
  from: string;
  workspace: string;
  /** The candidate's name, for the interviewers' invitation; absent once erased. */
  candidateName?: string;
}

/** One line of at most `max` characters: names travel in a subject and a SUMMARY. */
export const oneLine = (s: string, max = 120) => s.replace(/\s+/g, ' ').trim().slice(0, max);

/** "Monday 30 November 2026, 10:00–11:00 (Europe/Berlin)": the time as the reader's invitation shows it. */
export function whenText(start: string, end: string, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${day.format(new Date(start))}, ${time.format(new Date(start))}–${time.format(new Date(end))} (${timeZone})`;
}

/** The zone a recipient reads the time in: their own, else the interview's (the candidate's is the interview's). */
export const readerZone = (c: Pick<InvitationChange, 'timeZone'>, r: Pick<Recipient, 'timeZone'>): string => r.timeZone ?? c.timeZone;

export interface InvitationText {
  /** The event's SUMMARY. */
  title: string;
  subject: string;
  /** The body, one paragraph a line. */
  lines: string[];
}

/** The words of the message `r` gets about change `c`. */
export function invitationText(
  c: Pick<InvitationChange, 'event' | 'start' | 'end' | 'timeZone' | 'stepName' | 'location'>,
  r: Pick<Recipient, 'kind' | 'method' | 'timeZone'>,
  ctx: Pick<MailContext, 'workspace' | 'candidateName'>,
): InvitationText {
  const step = oneLine(c.stepName);
  const workspace = oneLine(ctx.workspace);
  const title =
    r.kind === 'candidate' ? `${step} with ${workspace}` : `Interview: ${oneLine(ctx.candidateName || 'a candidate')} (${step})`;
  const prefix = r.method === 'CANCEL' ? 'Cancelled: ' : c.event === 'interview.updated' ? 'Updated: ' : '';
  const zone = readerZone(c, r);
  const lines = [
    r.method === 'CANCEL' ? `This interview is cancelled: ${title}.` : `${title}.`,
    `When: ${whenText(c.start, c.end, zone)}`,
    ...(zone !== c.timeZone ? [`Booked as: ${whenText(c.start, c.end, c.timeZone)}`] : []),
    ...(c.location && r.method === 'REQUEST' ? [`Where: ${c.location}`] : []),
    r.kind === 'interviewer' && r.method === 'REQUEST'
      ? 'The kit and your scorecard are under My interviews in the console.'
      : `Sent by ${workspace} through Talent Pipeline.`,
  ];
  return { title, subject: `${prefix}${title}`, lines };
}
