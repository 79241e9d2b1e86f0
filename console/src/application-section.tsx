/**
 * The candidate page's Application section, for a candidate who applied: the screening's result,
 * what it did and why in plain words (each failed rule with the answer given), **Overturn** for
 * its decision (one action: a pending rejection cancelled, a screening rejection undone, or a
 * review flag cleared), then the answers under their questions (the posting's labels; a question
 * since removed is named by its id) and the consent the applicant accepted.
 */
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, api, errorText, unwrap } from './api/client';
import type { ProfileSectionProps } from './profile-sections';
import { Live } from './recruiting';
import { useMay } from './session';
import { Loaded, When, useLoad } from './ui';

type Screening = NonNullable<ProfileSectionProps['candidate']['screening']>;
type Answer = boolean | number | string | string[];

async function questionLabels(reqId: string | null | undefined): Promise<Map<string, string>> {
  if (!reqId) return new Map();
  try {
    const p = (await unwrap(api.GET('/api/requisitions/{id}/posting', { params: { path: { id: reqId } } }))).data;
    return new Map(p.questions.map((q) => [q.id, q.label]));
  } catch (err) {
    // No posting any more (or none this role reads): the answers are shown by question id.
    if (err instanceof ApiError && (err.status === 404 || err.status === 403)) return new Map();
    throw err;
  }
}

const answerText = (a: Answer) => (typeof a === 'boolean' ? (a ? 'Yes' : 'No') : Array.isArray(a) ? a.join(', ') : String(a));

/** What the screening did, in words. */
function decision(s: Screening): string {
  if (s.overturned_at) return 'Overturned by a person.';
  if (s.result === 'passed') return s.action === 'move_to_ai_screened' ? 'Passed every rule: moved to AI screened.' : 'Passed every rule.';
  if (s.reject_at) return 'Failed a rule: to be rejected (reason “screening”) unless a person overturns it.';
  if (s.rejected_at) return 'Failed a rule: rejected (reason “screening”).';
  if (s.flagged) return 'Failed a rule: flagged for review.';
  return 'Failed a rule.';
}

/** Whether Overturn has something to undo (the API answers nothing_to_overturn otherwise). */
const overturnable = (s: Screening, stage: string) =>
  !s.overturned_at && s.result === 'failed' && (s.reject_at !== null || s.flagged || (s.rejected_at !== null && stage === 'rejected'));

export function ApplicationSection({ candidate: c, reload }: ProfileSectionProps) {
  const mayOverturn = useMay()('POST /api/candidates/{id}/screening/overturn');
  const [labels, reloadLabels] = useLoad(() => questionLabels(c.application ? c.req_id : null), [c.req_id, !!c.application]);
  const [said, setSaid] = useState<{ message: string; kind: 'success' | 'warning' }>();
  const [busy, setBusy] = useState(false);
  if (!c.application && !c.screening) return null;
  const s = c.screening;

  const overturn = async () => {
    setBusy(true);
    setSaid(undefined);
    try {
      await unwrap(api.POST('/api/candidates/{id}/screening/overturn', { params: { path: { id: c.id } } }));
      setSaid({ message: 'Screening overturned.', kind: 'success' });
      await reload();
    } catch (err) {
      setSaid({ message: errorText(err), kind: 'warning' });
      if (err instanceof ApiError && err.detail.code === 'nothing_to_overturn') await reload();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="application-h">
      <h2 id="application-h">Application</h2>
      <Live message={said?.message} kind={said?.kind} />
      {s && (
        <section aria-labelledby="screening-h">
          <h3 id="screening-h">Screening</h3>
          <dl class="facts">
            <dt>Result</dt>
            <dd>
              <span class="badge" data-screening={s.result}>
                {s.result === 'passed' ? 'Passed' : 'Failed'}
              </span>{' '}
              {decision(s)}
            </dd>
            <dt>Screened</dt>
            <dd>
              <When iso={s.screened_at} />, by the system
            </dd>
            {s.reject_at && (
              <>
                <dt>Rejection due</dt>
                <dd>
                  <When iso={s.reject_at} />
                </dd>
              </>
            )}
            {s.overturned_at && (
              <>
                <dt>Overturned</dt>
                <dd>
                  <When iso={s.overturned_at} />
                </dd>
              </>
            )}
          </dl>
          {s.reasons.length > 0 && (
            <>
              <h4 id="reasons-h">Why</h4>
              <ul aria-labelledby="reasons-h">
                {s.reasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            </>
          )}
          {mayOverturn && overturnable(s, c.stage) && (
            <button type="button" onClick={overturn} disabled={busy}>
              {busy ? 'Overturning…' : 'Overturn the screening'}
            </button>
          )}
        </section>
      )}
      {c.application && (
        <section aria-labelledby="answers-h">
          <h3 id="answers-h">Answers</h3>
          <Loaded load={labels} what="the questions" retry={reloadLabels}>
            {(byId) => {
              const entries = Object.entries(c.application!.answers);
              return entries.length ? (
                <dl class="facts answers">
                  {entries.map(([id, a]) => (
                    <Fragment key={id}>
                      <dt>{byId.get(id) ?? `A question since removed (${id})`}</dt>
                      <dd>{answerText(a)}</dd>
                    </Fragment>
                  ))}
                </dl>
              ) : (
                <p>No answers: the posting asked no questions, or none that were answered.</p>
              );
            }}
          </Loaded>
          <p class="hint">
            Received <When iso={c.application.received_at} />. The applicant accepted “{c.application.consent.text}” (version{' '}
            {c.application.consent.version}).
          </p>
        </section>
      )}
    </section>
  );
}
