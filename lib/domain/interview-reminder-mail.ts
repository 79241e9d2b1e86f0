/**
 * The feedback reminder an interviewer gets when their scorecard of an interview is missing: the
 * interview (its step, when it was, in its zone) and a link to the candidate in the console,
 * nothing more of the candidate (no name, no CV): a mailbox is no place for what the console
 * guards. Pure: the reminders run (lib/domain/interview-reminders.ts) sends it.
 */
import type { Interview } from '../api/interviews';
import type { OutgoingMail } from '../email/send';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The interview's start as `zone` (else its own) reads it, e.g. "Tuesday, 1 June 2027, 15:00 (Europe/Berlin)". */
export function whenOf(iv: Pick<Interview, 'start' | 'time_zone'>, zone = iv.time_zone): string {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  const when = new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'full', timeStyle: 'short' }).format(new Date(iv.start));
  return `${when} (${zone})`;
}

/**
 * The reminder to `to` about `iv`, its time in `zone` (the reader's own; else the interview's);
 * `consoleUrl` is the console's origin, or undefined when unknown (no link then).
 */
export function reminderMail(iv: Interview, to: string, consoleUrl: string | undefined, zone?: string): OutgoingMail {
  const link = consoleUrl ? `${consoleUrl.replace(/\/+$/, '')}/candidates/${iv.candidate_id}` : undefined;
  const what = `${iv.step_name} on ${whenOf(iv, zone)}`;
  const text = [
    `Your scorecard for ${what} is missing.`,
    '',
    "Please submit it while the interview is fresh: the hiring team decides on everyone's scorecards, and you see the others' once yours is in.",
    ...(link ? ['', `Open the candidate in the console: ${link}`] : []),
  ].join('\n');
  const html = [
    `<p>Your scorecard for ${escapeHtml(what)} is missing.</p>`,
    "<p>Please submit it while the interview is fresh: the hiring team decides on everyone's scorecards, and you see the others' once yours is in.</p>",
    ...(link ? [`<p><a href="${escapeHtml(link)}">Open the candidate in the console</a></p>`] : []),
  ].join('\n');
  return {
    to: [to],
    subject: `Scorecard missing: ${iv.step_name}`.replace(/[\r\n]+/g, ' ').slice(0, 200),
    text,
    html,
    tags: { kind: 'interview_feedback_reminder' },
  };
}
