/**
 * The invitation preview on the schedule form: before booking, what each recipient will receive,
 * word for word, made by the code the invitation worker sends with
 * (lib/domain/interview-invitation-text.ts): the subject, the text, the time in the recipient's own
 * zone. The calendar part is not shown: it carries the same event, in the interview's zone.
 */
import { invitationText } from '../../lib/domain/interview-invitation-text';
import type { Member } from './interviews';

export interface PreviewInput {
  stepName: string;
  start: string;
  end: string;
  timeZone: string;
  location: string | null;
  panel: readonly Member[];
  /** The candidate's invitation too, when the recruiter sends one. */
  candidate?: { name: string };
  workspace: string;
  /** The candidate's name as the interviewers' invitation names it. */
  candidateName: string;
}

export function InvitePreview(p: PreviewInput) {
  const change = {
    event: 'interview.scheduled' as const,
    start: p.start,
    end: p.end,
    timeZone: p.timeZone,
    stepName: p.stepName,
    location: p.location,
  };
  const ctx = { workspace: p.workspace, candidateName: p.candidateName };
  const recipients = [
    ...p.panel.map((m) => ({
      key: m.id,
      to: m.email,
      words: invitationText(change, { kind: 'interviewer', method: 'REQUEST', ...(m.time_zone && { timeZone: m.time_zone }) }, ctx),
    })),
    ...(p.candidate
      ? [
          {
            key: 'candidate',
            to: `${p.candidate.name} (the candidate)`,
            words: invitationText(change, { kind: 'candidate', method: 'REQUEST' }, ctx),
          },
        ]
      : []),
  ];
  return (
    <details class="invite-preview">
      <summary>Preview the invitations ({recipients.length})</summary>
      <ul>
        {recipients.map((r) => (
          <li key={r.key}>
            <p>
              <strong>To {r.to}</strong>
            </p>
            <p>
              <strong>Subject:</strong> {r.words.subject}
            </p>
            <div class="kit-text">{r.words.lines.join('\n')}</div>
          </li>
        ))}
      </ul>
    </details>
  );
}
