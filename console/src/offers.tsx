/**
 * The Offers section of a candidate's page: draft an offer (compensation, start date, expiry,
 * employment type, location, note), its approval chain with each step's state, request approval,
 * an approver's decision, send, record the answer, and every version comparable with the one
 * before it. The server enforces the status matrix and the chain; the page offers only the moves
 * the matrix allows (lib/model.ts) to the roles that may make them.
 */
import { useState } from 'preact/hooks';
import { OFFER_REASON_REQUIRED, OFFER_TRANSITIONS, PAY_PERIODS } from '../../lib/model';
import { api, unwrap } from './api/client';
import { jobTypeLabel } from './labels';
import { Chain, DecisionForm, Terms, Versions } from './offer-parts';
import {
  awaits,
  fetchChain,
  fetchMemberEmails,
  fetchOffer,
  fetchOffers,
  OFFER_STATUS_LABELS,
  PERIOD_LABELS,
  type OfferDetail,
  type OfferStatus,
} from './offer-data';
import { Field, FormDialog, formErrors, JOB_TYPES, Live, noErrors, REASON_MAX, type FormErrors } from './recruiting';
import { useMay, useSession } from './session';
import { Empty, Loaded, When, useLoad } from './ui';

interface OfferState {
  offer?: OfferDetail;
  earlier: Awaited<ReturnType<typeof fetchOffers>>;
  chain: Awaited<ReturnType<typeof fetchChain>>;
  emails: Map<string, string>;
}

async function loadOffers(candidateId: string): Promise<OfferState> {
  const [offers, chain, emails] = await Promise.all([fetchOffers(candidateId), fetchChain(), fetchMemberEmails()]);
  const newest = offers[0];
  return { offer: newest && (await fetchOffer(newest.id)), earlier: offers.slice(1), chain, emails };
}

export function Offers({ candidateId, onChanged }: { candidateId: string; onChanged: () => Promise<void> }) {
  const [load, reload] = useLoad(() => loadOffers(candidateId), [candidateId]);
  const [live, setLive] = useState<string>();
  const [editing, setEditing] = useState(false);
  const may = useMay();
  const me = useSession().session.user.id;
  const done = async (msg: string) => {
    setLive(msg);
    setEditing(false);
    await reload();
    await onChanged();
  };
  return (
    <section class="card offers" aria-labelledby="offers-h">
      <h2 id="offers-h">Offers</h2>
      <Live message={live} kind="success" />
      <Loaded load={load} what="the offers" retry={reload}>
        {({ offer: o, earlier, chain, emails }) => {
          const open = o && ['draft', 'pending_approval', 'approved', 'sent'].includes(o.status);
          const canWrite = may('POST /api/candidates/{id}/offers');
          return (
            <>
              {!o && !editing && <Empty>No offer yet.</Empty>}
              {!open && canWrite && !editing && (
                <button type="button" class="primary" onClick={() => setEditing(true)}>
                  Draft an offer
                </button>
              )}
              {editing && (
                <OfferForm candidateId={candidateId} current={open ? o : undefined} onSaved={done} onCancel={() => setEditing(false)} />
              )}
              {o && (
                <div class="offer">
                  <h3>
                    Offer, version {o.version}{' '}
                    <span class="badge" data-offer={o.status}>
                      {OFFER_STATUS_LABELS[o.status]}
                    </span>
                  </h3>
                  {o.reason && <p>Reason: {o.reason}</p>}
                  {o.sent_at && (
                    <p class="hint">
                      Sent <When iso={o.sent_at} />
                    </p>
                  )}
                  <Terms o={o} />
                  <Chain chain={chain} o={o} emails={emails} />
                  {o.status === 'draft' && o.approvals.some((a) => a.version === o.version && a.decision === 'reject') && (
                    <p class="hint">An approver rejected this version: change the terms to make a new version before asking again.</p>
                  )}
                  {awaits(chain, o, me) && <DecisionForm offerId={o.id} label="this offer" onDecided={done} />}
                  {canWrite && !editing && (
                    <StatusActions o={o} chainApplies={chain.length > 0} onEdit={() => setEditing(true)} onDone={done} />
                  )}
                  <Versions versions={o.versions} />
                </div>
              )}
              {earlier.length > 0 && (
                <>
                  <h3>Earlier offers</h3>
                  <ul>
                    {earlier.map((e) => (
                      <li key={e.id}>
                        {OFFER_STATUS_LABELS[e.status]}, version {e.version}, made <When iso={e.created_at} />
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

/** The moves the matrix allows from here, each a button (a reason asked first where one is required). */
function StatusActions({
  o,
  chainApplies,
  onEdit,
  onDone,
}: {
  o: OfferDetail;
  chainApplies: boolean;
  onEdit: () => void;
  onDone: (msg: string) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [asking, setAsking] = useState<OfferStatus>();
  const next = OFFER_TRANSITIONS[o.status].filter((s) => s !== 'expired');
  const change = async (status: OfferStatus, reason?: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(api.POST('/api/offers/{id}/status', { params: { path: { id: o.id } }, body: { status, ...(reason && { reason }) } }));
      await onDone(`The offer is now ${OFFER_STATUS_LABELS[status].toLowerCase()}.`);
    } catch (err) {
      setError(formErrors(err, []).general);
      throw err;
    } finally {
      setBusy(false);
    }
  };
  const labels: Partial<Record<OfferStatus, string>> = {
    pending_approval: 'Request approval',
    draft: 'Withdraw the approval request',
    sent: 'Send the offer',
    accepted: 'Record accepted',
    declined: 'Record declined…',
    rescinded: 'Rescind…',
  };
  // With a chain that applies, approval comes from its approvers, not from this route.
  if (!chainApplies) labels.approved = 'Mark approved';
  return (
    <div class="actions offer-actions">
      {['draft', 'pending_approval', 'approved'].includes(o.status) && (
        <button type="button" onClick={onEdit} disabled={busy}>
          Change the terms
        </button>
      )}
      {next.map((s) =>
        labels[s] ? (
          <button
            key={s}
            type="button"
            class={s === 'rescinded' || s === 'declined' ? 'danger' : undefined}
            disabled={busy}
            onClick={() => (OFFER_REASON_REQUIRED.includes(s) ? setAsking(s) : change(s).catch(() => undefined))}
          >
            {labels[s]}
          </button>
        ) : null,
      )}
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      {asking && <ReasonDialog to={asking} onClose={() => setAsking(undefined)} onSubmit={(r) => change(asking, r)} />}
    </div>
  );
}

function ReasonDialog({ to, onClose, onSubmit }: { to: OfferStatus; onClose: () => void; onSubmit: (reason: string) => Promise<void> }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const title = to === 'declined' ? 'Record the decline' : 'Rescind the offer';
  return (
    <FormDialog
      open
      title={title}
      submitLabel={to === 'declined' ? 'Record declined' : 'Rescind'}
      busy={busy}
      error={errors.general}
      onClose={onClose}
      onSubmit={async () => {
        if (!reason.trim()) return setErrors({ fields: { reason: 'Say why.' } });
        setBusy(true);
        try {
          await onSubmit(reason.trim());
          onClose();
        } catch (err) {
          setErrors(formErrors(err, ['reason']));
        } finally {
          setBusy(false);
        }
      }}
    >
      <Field
        id="offer-reason"
        label="Reason"
        required
        value={reason}
        onInput={setReason}
        error={errors.fields.reason}
        hint={`Up to ${REASON_MAX} characters.`}
      />
    </FormDialog>
  );
}

// ---- the form --------------------------------------------------------------------------------

const FIELDS = ['amount', 'currency', 'period', 'start_date', 'expires_on', 'employment_type', 'location', 'note'] as const;
type Values = Record<(typeof FIELDS)[number], string>;
/** The API's field (as it names it in an error) to the form's. */
const API_FIELD: Record<string, (typeof FIELDS)[number]> = {
  'compensation.amount': 'amount',
  compensation: 'amount',
  'compensation.currency': 'currency',
  'compensation.period': 'period',
  start_date: 'start_date',
  expires_at: 'expires_on',
  employment_type: 'employment_type',
  location: 'location',
  note: 'note',
};

const pad = (n: number) => String(n).padStart(2, '0');
const localDate = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
/** The end of that day in the reader's time zone, as the API's ISO 8601. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59`).toISOString();

function valuesOf(o?: OfferDetail): Values {
  return {
    amount: o?.compensation.amount?.toString() ?? '',
    currency: o?.compensation.currency ?? 'EUR',
    period: o?.compensation.period ?? 'year',
    start_date: o?.start_date ?? '',
    expires_on: o?.expires_at ? localDate(o.expires_at) : '',
    employment_type: o?.employment_type ?? '',
    location: o?.location ?? '',
    note: o?.note ?? '',
  };
}

function OfferForm({
  candidateId,
  current,
  onSaved,
  onCancel,
}: {
  candidateId: string;
  current?: OfferDetail;
  onSaved: (msg: string) => Promise<void>;
  onCancel: () => void;
}) {
  const initial = valuesOf(current);
  const [v, setV] = useState<Values>(initial);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const set = (k: keyof Values) => (value: string) => setV((old) => ({ ...old, [k]: value }));

  const submit = async (e: Event) => {
    e.preventDefault();
    const amount = Number(v.amount);
    if (!v.amount.trim() || !Number.isFinite(amount)) return setErrors({ fields: { amount: 'Enter the amount, a number such as 65000.' } });
    if (!v.start_date) return setErrors({ fields: { start_date: 'Enter the start date.' } });
    const compensation = { amount, currency: v.currency.trim().toUpperCase(), period: v.period as (typeof PAY_PERIODS)[number] };
    const optional = (s: string) => (s.trim() ? s.trim() : null);
    setBusy(true);
    setErrors(noErrors);
    try {
      if (!current) {
        await unwrap(
          api.POST('/api/candidates/{id}/offers', {
            params: { path: { id: candidateId } },
            body: {
              compensation,
              start_date: v.start_date,
              ...(v.expires_on && { expires_at: endOfDay(v.expires_on) }),
              ...(v.employment_type && { employment_type: v.employment_type as (typeof JOB_TYPES)[number] }),
              ...(v.location.trim() && { location: v.location.trim() }),
              ...(v.note.trim() && { note: v.note.trim() }),
            },
          }),
        );
        await onSaved('Offer drafted.');
      } else {
        // Only what changed: an unchanged term is not sent, so it makes no version of its own.
        const changed = (k: keyof Values) => v[k] !== initial[k];
        const body = {
          ...((changed('amount') || changed('currency') || changed('period')) && { compensation }),
          ...(changed('start_date') && { start_date: v.start_date }),
          ...(changed('expires_on') && { expires_at: v.expires_on ? endOfDay(v.expires_on) : null }),
          ...(changed('employment_type') && {
            employment_type: (optional(v.employment_type) as (typeof JOB_TYPES)[number] | null) ?? null,
          }),
          ...(changed('location') && { location: optional(v.location) }),
          ...(changed('note') && { note: optional(v.note) }),
        };
        if (Object.keys(body).length === 0) return setErrors({ fields: {}, general: 'Nothing changed.' });
        await unwrap(api.PATCH('/api/offers/{id}', { params: { path: { id: current.id } }, body }));
        await onSaved('The terms are saved.');
      }
    } catch (err) {
      const f = formErrors(err, Object.keys(API_FIELD));
      const fields: FormErrors['fields'] = {};
      for (const [k, msg] of Object.entries(f.fields)) fields[API_FIELD[k]!] = msg;
      setErrors({ fields, ...(f.general && { general: f.general }) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="offer-form" onSubmit={submit} noValidate aria-labelledby="offer-form-h">
      <h3 id="offer-form-h">{current ? 'Change the terms' : 'Draft an offer'}</h3>
      {current?.requested_at && <p class="hint">Approval was requested: a change makes a new version and asks the chain again.</p>}
      <fieldset>
        <legend>Compensation</legend>
        <Field
          id="offer-amount"
          label="Amount"
          required
          type="number"
          value={v.amount}
          onInput={set('amount')}
          error={errors.fields.amount}
        />
        <Field
          id="offer-currency"
          label="Currency"
          required
          value={v.currency}
          onInput={set('currency')}
          error={errors.fields.currency}
          hint="An ISO 4217 code, such as EUR, GBP or USD."
        />
        <div class="field">
          <label for="offer-period">Period</label>
          <select id="offer-period" value={v.period} onChange={(e) => set('period')(e.currentTarget.value)}>
            {PAY_PERIODS.map((p) => (
              <option key={p} value={p}>
                {PERIOD_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
      </fieldset>
      <DateField
        id="offer-start"
        label="Start date"
        required
        value={v.start_date}
        onInput={set('start_date')}
        error={errors.fields.start_date}
      />
      <DateField
        id="offer-expires"
        label="Expires at the end of"
        value={v.expires_on}
        onInput={set('expires_on')}
        error={errors.fields.expires_on}
      />
      <div class="field">
        <label for="offer-type">
          Employment type<span class="optional"> (optional)</span>
        </label>
        <select id="offer-type" value={v.employment_type} onChange={(e) => set('employment_type')(e.currentTarget.value)}>
          <option value="">Not set</option>
          {JOB_TYPES.map((t) => (
            <option key={t} value={t}>
              {jobTypeLabel(t)}
            </option>
          ))}
        </select>
      </div>
      <Field id="offer-location" label="Location" value={v.location} onInput={set('location')} error={errors.fields.location} />
      <div class="field">
        <label for="offer-note">
          Note<span class="optional"> (optional)</span>
        </label>
        <textarea id="offer-note" value={v.note} onInput={(e) => set('note')(e.currentTarget.value)} />
        {errors.fields.note && <p class="field-error">{errors.fields.note}</p>}
      </div>
      {errors.general && (
        <p class="alert error" role="alert">
          {errors.general}
        </p>
      )}
      <div class="actions">
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : current ? 'Save the terms' : 'Save the draft'}
        </button>
      </div>
    </form>
  );
}

function DateField(props: { id: string; label: string; value: string; onInput: (v: string) => void; error?: string; required?: boolean }) {
  return (
    <div class="field">
      <label for={props.id}>
        {props.label}
        {!props.required && <span class="optional"> (optional)</span>}
      </label>
      <input
        id={props.id}
        type="date"
        value={props.value}
        required={props.required}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      {props.error && (
        <p class="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}
