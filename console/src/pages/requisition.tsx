/**
 * One requisition: its fields (saved with If-Match), its status (only the moves the matrix
 * allows), the status history and the board: a column per stage, each card with its own
 * "Move to…" (dragging a card is an extra for the mouse).
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, errorText, unwrap } from '../api/client';
import { reqStatusLabel } from '../labels';
import { Link } from '../router';
import {
  actorText,
  fetchRequisition,
  formErrors,
  Live,
  needsReason,
  nextStatuses,
  noErrors,
  REASON_MAX,
  type FormErrors,
  type ReqStatus,
  type RequisitionDetail,
} from '../recruiting';
import { Loaded, Notice, PageTitle, When, useLoad } from '../ui';
import { RequisitionFields, type ReqValues } from './requisitions';
import { Board } from './requisition-board';
import { Team } from './requisition-team';
import { PlacementTable } from '../placement-list';
import { InterviewPlan } from './interview-plan';
import { PostingSection } from './posting';
import { may } from '../../../lib/permissions';
import { useSession } from '../session';

export type LiveMessage = { message: string; kind: 'success' | 'warning' } | undefined;

export function RequisitionPage({ id }: { id: string }) {
  const [load, reload] = useLoad(() => fetchRequisition(id), [id]);
  const title = load.state === 'ok' ? load.data.title : 'Requisition';
  const { role } = useSession().session.user;
  return (
    <>
      <PageTitle title={title}>{title}</PageTitle>
      <p class="lead">
        <Link href="/requisitions">All requisitions</Link>
      </p>
      <Loaded load={load} what="the requisition" retry={reload}>
        {(r) => (
          <>
            <Summary r={r} />
            <Board r={r} onChanged={reload} />
            {may(role, 'POST /api/requisitions/{id}/status') && <StatusControl r={r} onChanged={reload} />}
            <Team r={r} onChanged={reload} />
            {may(role, 'GET /api/requisitions/{id}/posting') && <PostingSection r={r} />}
            {may(role, 'GET /api/placements') && (
              <section class="card" aria-labelledby="placements-h">
                <h2 id="placements-h">Placements</h2>
                <PlacementTable query={{ req_id: r.id }} showReq={false} label="Placements of this requisition" />
              </section>
            )}
            {may(role, 'GET /api/requisitions/{id}/interview-plan') && <InterviewPlan reqId={r.id} />}
            {may(role, 'PATCH /api/requisitions/{id}') && <FieldsForm r={r} onChanged={reload} />}
            <StatusHistory r={r} />
          </>
        )}
      </Loaded>
    </>
  );
}

function Summary({ r }: { r: RequisitionDetail }) {
  return (
    <dl class="facts">
      <dt>Status</dt>
      <dd>
        <span class={`badge req-${r.status}`}>{reqStatusLabel(r.status)}</span>
      </dd>
      <dt>Hires</dt>
      <dd>
        {r.hires} of {r.headcount ?? 'no limit'}
      </dd>
      <dt>Candidates</dt>
      <dd>
        {r.candidate_count} ({r.offers_pending} {r.offers_pending === '1' ? 'offer' : 'offers'} pending)
      </dd>
    </dl>
  );
}

// ---- status ----------------------------------------------------------------------------------

function StatusControl({ r, onChanged }: { r: RequisitionDetail; onChanged: () => Promise<void> }) {
  const [live, say] = useState<LiveMessage>();
  const options = nextStatuses(r.status);
  const [to, setTo] = useState<ReqStatus | ''>(options[0] ?? '');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setTo(nextStatuses(r.status)[0] ?? '');
    setReason('');
  }, [r.status]);
  const reasonNeeded = to !== '' && needsReason(to);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!to) return;
    if (reasonNeeded && !reason.trim())
      return setErrors({ fields: { reason: `Say why the requisition becomes ${reqStatusLabel(to).toLowerCase()}.` } });
    setBusy(true);
    setErrors(noErrors);
    try {
      await unwrap(
        api.POST('/api/requisitions/{id}/status', {
          params: { path: { id: r.id } },
          body: { status: to, from_status: r.status, ...(reason.trim() && { reason: reason.trim() }) },
        }),
      );
      say({ message: `The requisition is now ${reqStatusLabel(to).toLowerCase()}.`, kind: 'success' });
      await onChanged();
    } catch (err) {
      if (err instanceof ApiError && err.detail.code === 'stale_status') {
        say({ message: `Someone else changed the status first. ${errorText(err)}. The page shows it now.`, kind: 'warning' });
        await onChanged();
      } else setErrors(formErrors(err, ['status', 'reason']));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="status-h" noValidate>
      <h2 id="status-h">Status</h2>
      <p>
        Now <span class={`badge req-${r.status}`}>{reqStatusLabel(r.status)}</span>
      </p>
      <div class="field">
        <label for="req-next">Change to</label>
        <select
          id="req-next"
          value={to}
          onChange={(e) => setTo(e.currentTarget.value as ReqStatus)}
          aria-invalid={errors.fields.status ? 'true' : undefined}
          aria-describedby="req-next-hint"
        >
          {options.map((s) => (
            <option key={s} value={s}>
              {reqStatusLabel(s)}
            </option>
          ))}
        </select>
        <p class="hint" id="req-next-hint">
          Only the changes allowed from {reqStatusLabel(r.status).toLowerCase()} are offered.
        </p>
        {errors.fields.status && <p class="field-error">{errors.fields.status}</p>}
      </div>
      {reasonNeeded && (
        <div class="field">
          <label for="req-reason">Reason</label>
          <textarea
            id="req-reason"
            rows={2}
            maxLength={REASON_MAX}
            value={reason}
            required
            aria-invalid={errors.fields.reason ? 'true' : undefined}
            aria-describedby={errors.fields.reason ? 'req-reason-error req-reason-hint' : 'req-reason-hint'}
            onInput={(e) => setReason(e.currentTarget.value)}
          />
          <p class="hint" id="req-reason-hint">
            Required for {reqStatusLabel(to).toLowerCase()}; kept in the status history.
          </p>
          {errors.fields.reason && (
            <p class="field-error" id="req-reason-error">
              {errors.fields.reason}
            </p>
          )}
        </div>
      )}
      {errors.general && (
        <p class="alert error" role="alert">
          {errors.general}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || !to}>
        {busy ? 'Saving…' : 'Change status'}
      </button>
      <Live message={live?.message} kind={live?.kind} />
    </form>
  );
}

function StatusHistory({ r }: { r: RequisitionDetail }) {
  const rows = [...r.status_history].reverse();
  return (
    <section aria-labelledby="status-history-h">
      <h2 id="status-history-h">Status history</h2>
      <table class="stack">
        <caption class="sr-only">Status changes, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Change</th>
            <th scope="col">Reason</th>
            <th scope="col">By</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((h) => (
            <tr key={h.at + h.to}>
              <td data-label="When">
                <When iso={h.at} />
              </td>
              <td data-label="Change">
                {h.from ? `${reqStatusLabel(h.from)} → ${reqStatusLabel(h.to)}` : `Created ${reqStatusLabel(h.to).toLowerCase()}`}
              </td>
              <td data-label="Reason">{h.reason ?? '—'}</td>
              <td data-label="By">{actorText(h.actor)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

// ---- fields ----------------------------------------------------------------------------------

const valuesOf = (r: RequisitionDetail): ReqValues => ({
  title: r.title,
  department: r.department ?? '',
  location: r.location ?? '',
  job_type: r.job_type ?? '',
  headcount: r.headcount === null ? '' : String(r.headcount),
});

function FieldsForm({ r, onChanged }: { r: RequisitionDetail; onChanged: () => Promise<void> }) {
  const [v, setV] = useState(() => valuesOf(r));
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ kind: 'success' | 'warning'; text: string }>();
  useEffect(() => setV(valuesOf(r)), [r.etag]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setNote(undefined);
    const before = valuesOf(r);
    const body: Record<string, string | number | null> = {};
    if (v.title.trim() !== before.title) body.title = v.title.trim();
    for (const f of ['department', 'location', 'job_type'] as const) if (v[f].trim() !== before[f]) body[f] = v[f].trim() || null;
    if (v.headcount.trim() !== before.headcount) {
      const n = Number(v.headcount);
      if (!Number.isInteger(n) || n < 1) return setErrors({ fields: { headcount: 'Enter a whole number of 1 or more.' } });
      body.headcount = n;
    }
    if (Object.keys(body).length === 0) return setNote({ kind: 'success', text: 'Nothing changed.' });
    setBusy(true);
    setErrors(noErrors);
    try {
      await unwrap(
        api.PATCH('/api/requisitions/{id}', {
          params: { path: { id: r.id } },
          body: body as { title?: string },
          headers: r.etag ? { 'If-Match': r.etag } : {},
        }),
      );
      setNote({ kind: 'success', text: 'Requisition saved.' });
      await onChanged();
    } catch (err) {
      if (err instanceof ApiError && err.status === 412) {
        setNote({
          kind: 'warning',
          text: 'Someone else changed this requisition after you opened it. It has been reloaded with their changes: make yours again.',
        });
        setErrors(noErrors);
        await onChanged();
      } else setErrors(formErrors(err, ['title', 'department', 'location', 'job_type', 'headcount']));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="fields-h" noValidate>
      <h2 id="fields-h">Details</h2>
      <div class="grid-fields">
        <RequisitionFields values={v} onChange={(p) => setV({ ...v, ...p })} errors={errors} idPrefix="req" />
      </div>
      {errors.general && (
        <p class="alert error" role="alert">
          {errors.general}
        </p>
      )}
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save details'}
      </button>
    </form>
  );
}
