/**
 * The pieces of an offer the profile and the Approvals page share: its terms, its approval chain
 * with each step's state, an approver's decision form, and its versions, each comparable with the
 * one before it.
 */
import { useId, useState } from 'preact/hooks';
import type { ApprovalStep } from '../../lib/domain/offer-approvals';
import { api, unwrap } from './api/client';
import { jobTypeLabel } from './labels';
import { formErrors, noErrors, type FormErrors } from './recruiting';
import { When } from './ui';
import { chainView, moneyText, termChanges, type OfferDetail, type OfferVersion } from './offer-data';

/** After a decision: the header's count reads the list again (app.tsx listens). */
const announceDecision = () => dispatchEvent(new Event('offer-decided'));

const STEP_STATE = { approved: 'Approved', waiting: 'Waiting', not_reached: 'Not reached yet', rejected: 'Rejected' } as const;

/** The current version's terms. */
export function Terms({ o }: { o: OfferVersion }) {
  return (
    <dl class="facts">
      <dt>Compensation</dt>
      <dd>{moneyText(o.compensation)}</dd>
      {o.bonus && (
        <>
          <dt>Bonus</dt>
          <dd>{o.bonus}</dd>
        </>
      )}
      {o.equity && (
        <>
          <dt>Equity</dt>
          <dd>{o.equity}</dd>
        </>
      )}
      <dt>Start date</dt>
      <dd>{o.start_date}</dd>
      <dt>Expires</dt>
      <dd>
        <When iso={o.expires_at} empty="no expiry" />
      </dd>
      <dt>Employment type</dt>
      <dd>{o.employment_type ? jobTypeLabel(o.employment_type) : '—'}</dd>
      <dt>Location</dt>
      <dd>{o.location ?? '—'}</dd>
      {o.note && (
        <>
          <dt>Note</dt>
          <dd class="note-body">{o.note}</dd>
        </>
      )}
    </dl>
  );
}

/** The chain's steps that apply to this offer, each with its state and its approvers' decisions. */
export function Chain({ chain, o, emails }: { chain: readonly ApprovalStep[]; o: OfferDetail; emails: Map<string, string> }) {
  const { steps } = chainView(chain, o);
  const id = useId();
  return (
    <div class="offer-chain">
      <h3 id={id}>Approval chain</h3>
      {steps.length === 0 ? (
        <p class="hint">No approval step applies to this offer: once approval is requested, a recruiter marks it approved.</p>
      ) : (
        <ol aria-labelledby={id}>
          {steps.map((s) => (
            <li key={s.index}>
              <span class="badge" data-step={s.state}>
                Step {s.index + 1}: {STEP_STATE[s.state]}
              </span>{' '}
              <span class="hint">
                {s.mode === 'any' ? 'any one of' : 'every one of'}
                {s.above && ` (above ${s.above.amount} ${s.above.currency})`}
              </span>
              <ul>
                {s.approvers.map((a) => (
                  <li key={a.id}>
                    {emails.get(a.id) ?? 'a former member'}:{' '}
                    {a.decision ? (
                      <>
                        {a.decision.decision === 'approve' ? 'approved' : 'rejected'} <When iso={a.decision.at} />
                        {a.decision.comment && <q> {a.decision.comment}</q>}
                      </>
                    ) : (
                      'no decision yet'
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** An approver's decision on the offer as it waits at their step: approve or reject, with a comment. */
export function DecisionForm({ offerId, label, onDecided }: { offerId: string; label: string; onDecided: (msg: string) => Promise<void> }) {
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const id = useId();
  const decide = async (decision: 'approve' | 'reject') => {
    setBusy(true);
    setErrors(noErrors);
    try {
      await unwrap(
        api.POST('/api/offers/{id}/approvals', {
          params: { path: { id: offerId } },
          body: { decision, ...(comment.trim() && { comment: comment.trim() }) },
        }),
      );
      setComment('');
      announceDecision();
      await onDecided(decision === 'approve' ? `You approved ${label}.` : `You rejected ${label}; it is back in draft.`);
    } catch (err) {
      setErrors(formErrors(err, ['comment']));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="decision" onSubmit={(e) => e.preventDefault()} aria-label={`Your decision on ${label}`}>
      <div class="field">
        <label for={`${id}-c`}>
          Comment<span class="optional"> (optional)</span>
        </label>
        <textarea
          id={`${id}-c`}
          value={comment}
          maxLength={1000}
          aria-invalid={errors.fields.comment ? 'true' : undefined}
          onInput={(e) => setComment(e.currentTarget.value)}
        />
        {errors.fields.comment && <p class="field-error">{errors.fields.comment}</p>}
      </div>
      {errors.general && (
        <p class="alert error" role="alert">
          {errors.general}
        </p>
      )}
      <div class="actions">
        <button type="button" class="primary" disabled={busy} onClick={() => decide('approve')}>
          Approve
        </button>
        <button type="button" class="danger" disabled={busy} onClick={() => decide('reject')}>
          Reject
        </button>
      </div>
    </form>
  );
}

/** Every version, newest first; each after the first compares with the one before it. */
export function Versions({ versions }: { versions: OfferVersion[] }) {
  const [open, setOpen] = useState<number>();
  const newestFirst = [...versions].reverse();
  return (
    <div class="offer-versions">
      <h3>Versions</h3>
      <ul>
        {newestFirst.map((v) => {
          const before = versions.find((p) => p.version === v.version - 1);
          const shown = open === v.version && before;
          const regionId = `offer-v${v.version}-diff`;
          return (
            <li key={v.version}>
              Version {v.version} · <When iso={v.created_at} />{' '}
              {before && (
                <button
                  type="button"
                  aria-expanded={shown ? 'true' : 'false'}
                  aria-controls={regionId}
                  onClick={() => setOpen(shown ? undefined : v.version)}
                >
                  Compare version {v.version} with version {before.version}
                </button>
              )}
              {shown && <Diff id={regionId} before={before} after={v} />}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Diff({ id, before, after }: { id: string; before: OfferVersion; after: OfferVersion }) {
  const changes = termChanges(before, after);
  return (
    <div id={id}>
      {changes.length === 0 ? (
        <p class="hint">No term changed.</p>
      ) : (
        <table class="offer-diff">
          <caption>
            Changed from version {before.version} to version {after.version}
          </caption>
          <thead>
            <tr>
              <th scope="col">Term</th>
              <th scope="col">Version {before.version}</th>
              <th scope="col">Version {after.version}</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={c.key}>
                <th scope="row">{c.label}</th>
                <td>
                  <del>{c.before || '—'}</del>
                </td>
                <td>
                  <ins>{c.after || '—'}</ins>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
