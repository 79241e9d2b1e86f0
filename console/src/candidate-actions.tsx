/**
 * The profile's actions that open a dialog: reject with a reason, add the person to another job,
 * move this candidate to another job. Each sends one API call and reports what it did.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import { ApiError, api, errorText, unwrap } from './api/client';
import { stageLabel } from './labels';
import { Link } from './router';
import {
  fetchRejectionReasons,
  fetchRequisitions,
  FormDialog,
  moveCandidate,
  STAGES,
  staleStage,
  type CandidateDetail,
  type Requisition,
  type Stage,
} from './recruiting';

export interface Reason {
  id: string;
  label: string;
  type: string;
}

/**
 * A rejection reason (required: the console always asks why) and an optional note. The reasons
 * are the workspace's own, from the pipeline settings.
 */
export function ReasonFields(props: {
  reason: string;
  note: string;
  onReason: (id: string) => void;
  onNote: (note: string) => void;
  error?: string;
  busy?: boolean;
  /** Who is rejected, for the labels screen readers hear. */
  who: string;
  noNote?: boolean;
}) {
  const id = useId();
  const [list, setList] = useState<Reason[]>();
  const [loadError, setLoadError] = useState<string>();
  useEffect(() => {
    fetchRejectionReasons().then(setList, (err) => setLoadError(`Could not load the rejection reasons: ${errorText(err)}`));
  }, []);
  const error = props.error ?? loadError;
  return (
    <>
      <div class="field">
        <label for={`${id}-reason`}>
          Reason<span class="sr-only"> for rejecting {props.who}</span>
        </label>
        <select
          id={`${id}-reason`}
          value={props.reason}
          required
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? `${id}-reason-error` : undefined}
          onChange={(e) => props.onReason(e.currentTarget.value)}
          disabled={props.busy || !list}
        >
          <option value="">{list ? 'Choose…' : 'Loading…'}</option>
          {list?.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label} ({r.type === 'candidate_withdrew' ? 'candidate withdrew' : 'we rejected'})
            </option>
          ))}
        </select>
        {error && (
          <p class="field-error" id={`${id}-reason-error`}>
            {error}
          </p>
        )}
      </div>
      {!props.noNote && (
        <div class="field">
          <label for={`${id}-note`}>
            Note<span class="optional"> (optional)</span>
          </label>
          <textarea
            id={`${id}-note`}
            maxLength={2000}
            rows={3}
            value={props.note}
            onInput={(e) => props.onNote(e.currentTarget.value)}
            disabled={props.busy}
          />
        </div>
      )}
    </>
  );
}

/** Reject one candidate: a reason, a note, sent with the stage the page showed. */
export function RejectDialog({
  c,
  open,
  onClose,
  onDone,
}: {
  c: CandidateDetail;
  open: boolean;
  onClose: () => void;
  onDone: (message: string, ok: boolean) => Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [reasonError, setReasonError] = useState<string>();
  useEffect(() => {
    if (!open) return;
    setReason('');
    setNote('');
    setError(undefined);
    setReasonError(undefined);
  }, [open]);
  const submit = async () => {
    if (!reason) return setReasonError('Choose a reason for the rejection.');
    setReasonError(undefined);
    setBusy(true);
    try {
      await moveCandidate(c.id, 'rejected', c.stage, { rejection_reason_id: reason, ...(note.trim() && { rejection_note: note.trim() }) });
      onClose();
      await onDone(`${c.name || 'The candidate'} was rejected.`, true);
    } catch (err) {
      const now = staleStage(err);
      if (now) {
        onClose();
        await onDone(`Someone else moved ${c.name} first: they are now in ${stageLabel(now)}. Nothing was changed.`, false);
      } else if (err instanceof ApiError && err.detail.field === 'rejection_reason_id') setReasonError(errorText(err));
      else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open={open}
      title={`Reject ${c.name || 'this candidate'}`}
      submitLabel="Reject"
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <p class="hint">
        From {stageLabel(c.stage)}
        {c.req_title ? ` on ${c.req_title}` : ''}. The reason is kept in their history; the note is personal data and stays on the candidate
        only.
      </p>
      <ReasonFields
        reason={reason}
        note={note}
        onReason={setReason}
        onNote={setNote}
        error={reasonError}
        busy={busy}
        who={c.name}
        noNote={Boolean(c.erased_at)}
      />
    </FormDialog>
  );
}

/** The open requisitions but the ones named, for the job dialogs. */
function useOpenRequisitions(open: boolean, except: (string | null | undefined)[]) {
  const [reqs, setReqs] = useState<Requisition[] | string>();
  useEffect(() => {
    if (!open) return;
    setReqs(undefined);
    fetchRequisitions('open').then(
      (r) => setReqs(r.filter((x) => !except.includes(x.id))),
      (err) => setReqs(`Could not load the open requisitions: ${errorText(err)}`),
    );
  }, [open]);
  return reqs;
}

function RequisitionSelect({
  id,
  reqs,
  value,
  onChange,
  error,
}: {
  id: string;
  reqs: Requisition[] | string | undefined;
  value: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  const problem = typeof reqs === 'string' ? reqs : error;
  return (
    <div class="field">
      <label for={id}>Requisition</label>
      <select
        id={id}
        value={value}
        required
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={problem ? `${id}-error` : `${id}-hint`}
        onChange={(e) => onChange(e.currentTarget.value)}
        disabled={!Array.isArray(reqs)}
      >
        <option value="">{reqs === undefined ? 'Loading…' : 'Choose…'}</option>
        {Array.isArray(reqs) &&
          reqs.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title}
            </option>
          ))}
      </select>
      {problem ? (
        <p class="field-error" id={`${id}-error`}>
          {problem}
        </p>
      ) : (
        <p class="hint" id={`${id}-hint`}>
          {Array.isArray(reqs) && reqs.length === 0 ? 'No other requisition is open.' : 'Only open requisitions take candidates.'}
        </p>
      )}
    </div>
  );
}

/**
 * The same person, considered for another job too: a new candidate on that requisition with the
 * same contact details (the API makes it the same person's).
 */
export function AddToJobDialog({
  c,
  open,
  onClose,
  onDone,
}: {
  c: CandidateDetail;
  open: boolean;
  onClose: () => void;
  onDone: (message: preact.ComponentChildren) => Promise<void>;
}) {
  const reqs = useOpenRequisitions(open, [c.req_id]);
  const [reqId, setReqId] = useState('');
  const [stage, setStage] = useState<Stage>('applied');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<preact.ComponentChildren>();
  const [reqError, setReqError] = useState<string>();
  useEffect(() => {
    if (!open) return;
    setReqId('');
    setStage('applied');
    setError(undefined);
    setReqError(undefined);
  }, [open]);
  const submit = async () => {
    if (!reqId) return setReqError('Choose the requisition.');
    setReqError(undefined);
    setBusy(true);
    try {
      const body = {
        name: c.name,
        stage,
        req_id: reqId,
        ...(c.email && { email: c.email }),
        ...(c.phone && { phone: c.phone }),
        ...(c.resume_url && { resume_url: c.resume_url }),
      };
      const { data } = await unwrap(api.POST('/api/candidates', { body }));
      const title = Array.isArray(reqs) ? reqs.find((r) => r.id === reqId)?.title : undefined;
      onClose();
      await onDone(
        <>
          {c.name} was added to {title ?? 'the requisition'} in {stageLabel(stage)}.{' '}
          <Link href={`/candidates/${data.id}`}>Open that candidate</Link>.
        </>,
      );
    } catch (err) {
      const existing = err instanceof ApiError ? (err.detail as { existing_id?: string }).existing_id : undefined;
      if (err instanceof ApiError && err.detail.field === 'req_id') setReqError(errorText(err));
      else
        setError(
          existing ? (
            <>
              {errorText(err)} <Link href={`/candidates/${existing}`}>Open the existing candidate</Link>.
            </>
          ) : (
            errorText(err)
          ),
        );
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open={open}
      title={`Add ${c.name} to another job`}
      submitLabel="Add to job"
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <p class="hint">
        They stay where they are on {c.req_title ?? 'their current job'}; the new job gets a candidate of its own, with its own stage and
        history.
      </p>
      <RequisitionSelect id="addjob-req" reqs={reqs} value={reqId} onChange={setReqId} error={reqError} />
      <div class="field">
        <label for="addjob-stage">Stage</label>
        <select id="addjob-stage" value={stage} onChange={(e) => setStage(e.currentTarget.value as Stage)}>
          {STAGES.filter((s) => s !== 'rejected').map((s) => (
            <option key={s} value={s}>
              {stageLabel(s)}
            </option>
          ))}
        </select>
      </div>
    </FormDialog>
  );
}

/** This candidate, moved to another requisition (PATCH req_id): the stage and history stay. */
export function MoveJobDialog({
  c,
  open,
  onClose,
  onDone,
}: {
  c: CandidateDetail;
  open: boolean;
  onClose: () => void;
  onDone: (message: string) => Promise<void>;
}) {
  const reqs = useOpenRequisitions(open, [c.req_id]);
  const [reqId, setReqId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [reqError, setReqError] = useState<string>();
  useEffect(() => {
    if (!open) return;
    setReqId('');
    setError(undefined);
    setReqError(undefined);
  }, [open]);
  const submit = async () => {
    if (!reqId) return setReqError('Choose the requisition.');
    setReqError(undefined);
    setBusy(true);
    try {
      const { data } = await unwrap(api.PATCH('/api/candidates/{id}', { params: { path: { id: c.id } }, body: { req_id: reqId } }));
      onClose();
      await onDone(`Moved to ${data.req_title ?? 'the requisition'}, still in ${stageLabel(data.stage)}.`);
    } catch (err) {
      if (err instanceof ApiError && err.detail.field === 'req_id') setReqError(errorText(err));
      else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open={open}
      title={`Move ${c.name || 'this candidate'} to another job`}
      submitLabel="Move to job"
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <p class="hint">
        Leaves {c.req_title ?? 'no requisition'} for the one you choose, in the same stage ({stageLabel(c.stage)}), with the same history.
      </p>
      <RequisitionSelect id="movejob-req" reqs={reqs} value={reqId} onChange={setReqId} error={reqError} />
    </FormDialog>
  );
}
