/**
 * Pieces the interview pages share: an interview's time as the viewer reads it, a step's kit, and
 * the "feedback overdue" mark.
 */
import { span, viewerZone } from './interviews';

/**
 * The time in the viewer's own zone; where the interview was scheduled in another zone (the
 * zone its invitations and reminders use), that time too.
 */
export function InterviewTime({ start, end, zone }: { start: string; end: string; zone: string }) {
  const own = viewerZone();
  return (
    <span class="iv-time">
      <time dateTime={start}>{span(start, end, own)}</time> <span class="hint">({own})</span>
      {zone !== own && (
        <span class="iv-zone">
          {' '}
          · {span(start, end, zone)} in {zone}
        </span>
      )}
    </span>
  );
}

/**
 * A step's kit. It is Markdown written by the recruiting team; the console shows its text as
 * written (line breaks kept), never as HTML, so nothing in it can run or restyle the page.
 */
export function Kit({ kit, step }: { kit: string; step: string }) {
  if (!kit.trim()) return <p class="hint">No kit for {step}.</p>;
  return (
    <details class="kit" open>
      <summary>Interview kit: {step}</summary>
      <div class="kit-text">{kit}</div>
    </details>
  );
}

/**
 * An interview whose reminder time has passed with a scorecard still missing: said in words (a
 * screen reader reads it; the colour only repeats it). Only those who read every scorecard of the
 * requisition are told (the API answers `feedback_overdue` to them alone).
 */
export function FeedbackOverdue() {
  return (
    <p class="overdue">
      <strong>Feedback overdue:</strong> a scorecard is still missing after the reminder.
    </p>
  );
}
