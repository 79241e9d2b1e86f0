/**
 * An interviewer's scorecard for one interview: the overall recommendation, a rating for each of
 * the step's attributes, an answer to each of its questions, and a note. A second submission is a
 * new version (the API keeps every one), so the form starts from the interviewer's latest.
 */
import { useRef, useState } from 'preact/hooks';
import { useFocusOnShow } from './ui';
import { api, errorText, unwrap } from './api/client';
import { OVERALLS, overallLabel, RATINGS, type PlanStep, type Scorecard } from './interviews';

type Template = PlanStep['scorecard'];

export function ScorecardForm({
  interviewId,
  template,
  mine,
  onSaved,
  onCancel,
}: {
  interviewId: string;
  /** The step's template (the interview's read answers it); undefined when the step is gone from the plan. */
  template: Template | undefined;
  mine: Scorecard | undefined;
  onSaved: (s: Scorecard) => void;
  onCancel: () => void;
}) {
  const [overall, setOverall] = useState<string>(mine?.overall ?? '');
  const [ratings, setRatings] = useState<Record<string, string>>(
    Object.fromEntries((mine?.ratings ?? []).map((r) => [r.attribute, r.rating])),
  );
  const [answers, setAnswers] = useState<Record<string, string>>(
    Object.fromEntries((mine?.answers ?? []).map((a) => [a.question, a.answer])),
  );
  const [note, setNote] = useState(mine?.note ?? '');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLSelectElement>(null);
  const id = (what: string) => `sc-${interviewId}-${what}`;
  useFocusOnShow(first);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!overall) {
      setError('Choose an overall recommendation.');
      first.current?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const body = {
        overall: overall as Scorecard['overall'],
        ratings: (template?.attributes ?? [])
          .filter((a) => ratings[a.name])
          .map((a) => ({ attribute: a.name, rating: ratings[a.name] as Scorecard['ratings'][number]['rating'] })),
        answers: (template?.questions ?? []).filter((q) => answers[q]?.trim()).map((q) => ({ question: q, answer: answers[q]!.trim() })),
        ...(note.trim() ? { note: note.trim() } : mine?.note ? { note: null } : {}),
      };
      const saved = await unwrap(api.POST('/api/interviews/{id}/scorecards', { params: { path: { id: interviewId } }, body }));
      onSaved(saved.data);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="scorecard-form" onSubmit={submit} noValidate aria-labelledby={id('h')}>
      <h4 id={id('h')}>{mine ? `Your scorecard (version ${mine.version}): edit it` : 'Your scorecard'}</h4>
      <div class="field">
        <label for={id('overall')}>Overall recommendation</label>
        <select id={id('overall')} ref={first} required value={overall} onChange={(e) => setOverall(e.currentTarget.value)}>
          <option value="">Choose…</option>
          {OVERALLS.map((o) => (
            <option key={o} value={o}>
              {overallLabel(o)}
            </option>
          ))}
        </select>
      </div>
      {template && template.attributes.length > 0 && (
        <fieldset>
          <legend>Ratings</legend>
          {template.attributes.map((a, i) => (
            <div class="field" key={a.name}>
              <label for={id(`rating-${i}`)}>{a.name}</label>
              <select
                id={id(`rating-${i}`)}
                value={ratings[a.name] ?? ''}
                onChange={(e) => setRatings({ ...ratings, [a.name]: e.currentTarget.value })}
              >
                <option value="">Not rated</option>
                {RATINGS.map((r) => (
                  <option key={r} value={r}>
                    {overallLabel(r)}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </fieldset>
      )}
      {template?.questions.map((q, i) => (
        <div class="field" key={q}>
          <label for={id(`answer-${i}`)}>
            {q}
            <span class="optional"> (optional)</span>
          </label>
          <textarea
            id={id(`answer-${i}`)}
            rows={3}
            value={answers[q] ?? ''}
            onInput={(e) => setAnswers({ ...answers, [q]: e.currentTarget.value })}
          />
        </div>
      ))}
      {!template && (
        <p class="hint">
          The step's rating attributes and questions come with its interview plan, which your role does not read: give your recommendation
          and a note.
        </p>
      )}
      <div class="field">
        <label for={id('note')}>
          Note<span class="optional"> (optional)</span>
        </label>
        <textarea id={id('note')} rows={4} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
      </div>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Submitting…' : mine ? 'Submit a new version' : 'Submit scorecard'}
        </button>
      </div>
    </form>
  );
}
