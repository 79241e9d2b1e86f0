/**
 * What the recruiting pages share: their API calls, the requisition rules (imported from the
 * server's own model, so the console offers exactly what the API accepts), field errors, the
 * stage mover and the "who did it" text.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import {
  CREATE_STATUSES,
  JOB_TYPES,
  LIST_STAGES,
  REASON_MAX,
  REASON_REQUIRED,
  REQ_STATUSES,
  REQ_TRANSITIONS,
  STAGES,
} from '../../lib/model';
import type { ReqStatus, Stage } from '../../lib/model';
import { ApiError, api, errorText, unwrap, unwrapWithResponse } from './api/client';
import { stageLabel } from './labels';

export { CREATE_STATUSES, JOB_TYPES, LIST_STAGES, REASON_MAX, REQ_STATUSES, STAGES };
export type { ReqStatus, Stage };

/** The statuses a requisition in `from` may change to (the server's matrix). */
export const nextStatuses = (from: ReqStatus): readonly ReqStatus[] => REQ_TRANSITIONS[from];
export const needsReason = (to: ReqStatus) => REASON_REQUIRED.includes(to);

// ---- API calls -------------------------------------------------------------------------------

export interface CandidateQuery {
  q?: string;
  stage?: (typeof LIST_STAGES)[number];
  req_id?: string;
  /** Only the rejected (the stage filter leaves them out). */
  rejected?: 'true';
  /** Where the candidates came from (careers, a link's src, api, console, import). */
  source?: string;
  cursor?: string;
  limit?: number;
}

export const fetchCandidates = (query: CandidateQuery) => unwrap(api.GET('/api/candidates', { params: { query } }));
export type CandidatePage = Awaited<ReturnType<typeof fetchCandidates>>;
export type Candidate = CandidatePage['data'][number];

export const fetchCandidate = async (id: string) => (await unwrap(api.GET('/api/candidates/{id}', { params: { path: { id } } }))).data;
export type CandidateDetail = Awaited<ReturnType<typeof fetchCandidate>>;
export type StageStay = CandidateDetail['stage_history'][number];

export const fetchRequisitions = async (status: ReqStatus, limit = 200) =>
  (await unwrap(api.GET('/api/requisitions', { params: { query: { status, limit } } }))).data;
export type Requisition = Awaited<ReturnType<typeof fetchRequisitions>>[number];

/** Every requisition, whatever its status (the list route answers one status at a time). */
export const fetchAllRequisitions = async () => (await Promise.all(REQ_STATUSES.map((s) => fetchRequisitions(s)))).flat();

export const fetchRequisition = async (id: string) => {
  const { data, response } = await unwrapWithResponse(api.GET('/api/requisitions/{id}', { params: { path: { id } } }));
  return { ...data.data, etag: response.headers.get('etag') ?? undefined };
};
export type RequisitionDetail = Awaited<ReturnType<typeof fetchRequisition>>;

export const fetchThresholds = async () => (await unwrap(api.GET('/api/settings/pipeline'))).data.stuck_days as Record<string, number>;

/** The workspace's rejection reasons (its own list, or the defaults), read once per page load. */
let reasons: Promise<{ id: string; label: string; type: string }[]> | undefined;
export const fetchRejectionReasons = () => {
  reasons ??= unwrap(api.GET('/api/settings/pipeline')).then(
    (r) => r.data.rejection_reasons,
    (err) => {
      reasons = undefined;
      throw err;
    },
  );
  return reasons;
};
/** After the settings page saved a new list. */
export const forgetRejectionReasons = () => {
  reasons = undefined;
};

/** Move a candidate, guarded by the stage the page showed; a rejection with its reason and note. */
export const moveCandidate = (
  candidate_id: string,
  stage: Stage,
  from_stage: Stage,
  rejection?: { rejection_reason_id: string; rejection_note?: string },
) => unwrap(api.POST('/api/pipeline', { body: { candidate_id, stage, from_stage, ...rejection } }));

/** The stage a stale move's 409 names ("candidate is in stage X, not Y"), when it names one. */
export function staleStage(err: unknown): Stage | undefined {
  if (!(err instanceof ApiError) || err.status !== 409) return undefined;
  const m = /in stage (\w+)/.exec(err.message);
  return m && (STAGES as readonly string[]).includes(m[1]!) ? (m[1] as Stage) : undefined;
}

// ---- small helpers ---------------------------------------------------------------------------

const DAY = 86_400_000;
/** Whole days from `since` to `until` (now by default). */
export const daysBetween = (since: string, until?: string | null) =>
  Math.max(0, Math.floor(((until ? Date.parse(until) : Date.now()) - Date.parse(since)) / DAY));
export const daysText = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/** Stuck once in the stage for at least the workspace's threshold; 0 (or none) turns the check off. */
export const isStuck = (stage: string, days: number, thresholds: Record<string, number> | undefined) => {
  const t = thresholds?.[stage];
  return t !== undefined && t > 0 && days >= t;
};

/** Who made a change: a person's email, a token's name, or "system". */
export function actorText(actor: { type: string; id?: string; name?: string; email?: string } | null | undefined): string {
  if (!actor || actor.type === 'system') return 'system';
  if (actor.type === 'user') return actor.email ?? 'a workspace member';
  return actor.name ? `token “${actor.name}”` : 'an API token';
}

// ---- forms -----------------------------------------------------------------------------------

/** An API refusal split into the field it names (shown at that field) and the rest (shown above the buttons). */
export interface FormErrors {
  fields: Record<string, string>;
  general?: string;
}
export const noErrors: FormErrors = { fields: {} };

export function formErrors(err: unknown, known: readonly string[]): FormErrors {
  const field = err instanceof ApiError ? err.detail.field : undefined;
  if (field && known.includes(field)) return { fields: { [field]: errorText(err) } };
  return { fields: {}, general: errorText(err) };
}

/** A labelled input whose error is tied to it (aria-invalid, aria-describedby). */
export function Field(props: {
  id: string;
  label: string;
  value: string;
  onInput: (v: string) => void;
  error?: string;
  type?: 'text' | 'email' | 'tel' | 'url' | 'number';
  hint?: string;
  required?: boolean;
  autoComplete?: string;
  inputRef?: preact.Ref<HTMLInputElement>;
}) {
  const described = [props.hint && `${props.id}-hint`, props.error && `${props.id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={props.id}>
        {props.label}
        {!props.required && <span class="optional"> (optional)</span>}
      </label>
      <input
        id={props.id}
        ref={props.inputRef}
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        required={props.required}
        autoComplete={props.autoComplete ?? 'off'}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={described}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      {props.hint && (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A form in a native modal <dialog>: focus trap, Escape closes, focus returns to the opener. */
export function FormDialog(props: {
  open: boolean;
  title: string;
  submitLabel: string;
  busy: boolean;
  error?: ComponentChildren;
  onSubmit: () => void;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    else if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose} class="dialog">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        {props.error && (
          <p class="alert error" role="alert">
            {props.error}
          </p>
        )}
        <div class="actions">
          <button type="button" onClick={() => ref.current?.close()} disabled={props.busy}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={props.busy}>
            {props.busy ? 'Saving…' : props.submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/**
 * A region that screen readers announce when its text changes; it is in the page from the start
 * (a region added together with its text is often not announced).
 */
export function Live({ message, kind = 'info' }: { message?: ComponentChildren; kind?: 'info' | 'success' | 'warning' }) {
  return (
    <div class={message ? `alert ${kind}` : 'live-empty'} role="status" aria-live="polite">
      {message}
    </div>
  );
}

// ---- the stage mover -------------------------------------------------------------------------

export type MoveOutcome =
  | { kind: 'moved'; to: Stage }
  | { kind: 'stale'; now?: Stage; message: string }
  | { kind: 'failed'; message: string };

/** The stage a "Move to…" select offers first: the next stage on, else the first other one. */
const defaultTarget = (stage: Stage): Stage => {
  const i = STAGES.indexOf(stage);
  const next = STAGES[i + 1];
  return next && next !== 'rejected' ? next : (STAGES.find((s) => s !== stage) as Stage);
};

/**
 * "Move to…": a select of the other stages and a button, usable from the keyboard alone and with
 * a single pointer. The move is sent with `from_stage`, so a move someone else made first is a
 * refusal (`stale`), never an overwrite.
 */
export function MoveTo({
  candidate,
  onDone,
  compact,
}: {
  candidate: { id: string; name: string; stage: Stage };
  onDone: (o: MoveOutcome) => void | Promise<void>;
  compact?: boolean;
}) {
  const id = useId();
  const [target, setTarget] = useState<Stage>(defaultTarget(candidate.stage));
  const [busy, setBusy] = useState(false);
  const [reasonList, setReasonList] = useState<{ id: string; label: string }[]>();
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  useEffect(() => setTarget(defaultTarget(candidate.stage)), [candidate.stage]);
  const rejecting = target === 'rejected';
  // The console always asks why: the reasons are read when a rejection is chosen.
  useEffect(() => {
    if (!rejecting || reasonList) return;
    fetchRejectionReasons().then(setReasonList, (err) => setReasonError(`Could not load the rejection reasons: ${errorText(err)}`));
  }, [rejecting, reasonList]);
  const move = async (e: Event) => {
    e.preventDefault();
    if (rejecting && !reason) {
      setReasonError('Choose a reason for the rejection.');
      return;
    }
    setReasonError(undefined);
    setBusy(true);
    let outcome: MoveOutcome;
    try {
      const rejection = rejecting ? { rejection_reason_id: reason, ...(note.trim() && { rejection_note: note.trim() }) } : undefined;
      await moveCandidate(candidate.id, target, candidate.stage, rejection);
      setReason('');
      setNote('');
      outcome = { kind: 'moved', to: target };
    } catch (err) {
      const now = staleStage(err);
      outcome =
        err instanceof ApiError && err.status === 409 && (now || err.detail.code === 'stale_stage')
          ? {
              kind: 'stale',
              now,
              message: `Someone else moved ${candidate.name} first${now ? `: they are now in ${stageLabel(now)}` : ''}. Nothing was moved.`,
            }
          : { kind: 'failed', message: `Could not move ${candidate.name}: ${errorText(err)}` };
    }
    setBusy(false);
    await onDone(outcome);
  };
  return (
    <form class={compact ? 'move compact' : 'move'} onSubmit={move}>
      <label for={id}>
        Move to<span class="sr-only"> (stage for {candidate.name})</span>
      </label>
      <select id={id} value={target} onChange={(e) => setTarget(e.currentTarget.value as Stage)} disabled={busy}>
        {STAGES.filter((s) => s !== candidate.stage).map((s) => (
          <option key={s} value={s}>
            {stageLabel(s)}
          </option>
        ))}
      </select>
      {rejecting && (
        <>
          <label for={`${id}-reason`}>
            Reason<span class="sr-only"> for rejecting {candidate.name}</span>
          </label>
          <select
            id={`${id}-reason`}
            value={reason}
            required
            aria-invalid={reasonError ? 'true' : undefined}
            aria-describedby={reasonError ? `${id}-reason-error` : undefined}
            onChange={(e) => setReason(e.currentTarget.value)}
            disabled={busy || !reasonList}
          >
            <option value="">{reasonList ? 'Choose…' : 'Loading…'}</option>
            {reasonList?.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
          <label for={`${id}-note`}>
            Note<span class="optional"> (optional)</span>
          </label>
          <input
            id={`${id}-note`}
            type="text"
            maxLength={2000}
            value={note}
            onInput={(e) => setNote(e.currentTarget.value)}
            disabled={busy}
          />
        </>
      )}
      <button type="submit" disabled={busy} aria-label={`Move ${candidate.name}`}>
        Move
      </button>
      {reasonError && (
        <p class="field-error" id={`${id}-reason-error`} role="alert">
          {reasonError}
        </p>
      )}
    </form>
  );
}
