/** Pieces the interview pages share: an interview's time as the viewer reads it, and a step's kit. */
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
