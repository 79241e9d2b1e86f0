/** "Add candidate": a native dialog, from the candidate list or pre-set to one requisition. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FromCv } from './add-from-cv';
import { ApiError, api, errorText, unwrap } from './api/client';
import { reqStatusLabel, stageLabel } from './labels';
import { Link } from './router';
import { Notice } from './ui';
import {
  Field,
  FormDialog,
  fetchRequisitions,
  formErrors,
  noErrors,
  STAGES,
  type FormErrors,
  type Requisition,
  type Stage,
} from './recruiting';

const FIELDS = ['name', 'email', 'phone', 'resume_url', 'req_id', 'stage'] as const;

export interface Created {
  id: string;
  name: string;
  /** Added from a CV that could not be attached: why, said beside the notice. */
  notAttached?: string;
}

/**
 * `requisition` fixes the requisition (the board's own); without it the dialog offers the open
 * ones. A requisition that is not open is still sent: the API's 409 says why it refuses.
 */
/** What the page says once the dialog has added someone: who, and a link to their profile. */
export function AddedNotice({ added }: { added?: Created }) {
  if (!added) return null;
  return (
    <Notice kind="success">
      {added.name} was added. <Link href={`/candidates/${added.id}`}>Open their profile</Link>.
      {added.notAttached && <> The CV was not attached ({added.notAttached}); upload it from their profile.</>}
    </Notice>
  );
}

export function AddCandidateDialog({
  open,
  onClose,
  onCreated,
  requisition,
  cv,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (c: Created) => void;
  requisition?: { id: string; title: string; status: string };
  /** From a CV: its upload is attached to the new person as `resume`, and what it holds is offered. */
  cv?: FromCv;
}) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [resume, setResume] = useState('');
  const [reqId, setReqId] = useState(requisition?.id ?? '');
  const [stage, setStage] = useState<Stage>('applied');
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  /** The candidate this person already is, where the API refused a duplicate. */
  const [duplicateOf, setDuplicateOf] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [openReqs, setOpenReqs] = useState<Requisition[] | 'error'>();
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const phoneRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!open) return;
    setName('');
    setEmail('');
    setPhone('');
    setResume('');
    setReqId(requisition?.id ?? '');
    setStage('applied');
    setErrors(noErrors);
    setDuplicateOf(undefined);
    if (!requisition) fetchRequisitions('open').then(setOpenReqs, () => setOpenReqs('error'));
    nameRef.current?.focus();
  }, [open]);

  const submit = async () => {
    if (!name.trim()) return setErrors({ fields: { name: 'Enter the candidate’s name.' } });
    setBusy(true);
    setErrors(noErrors);
    setDuplicateOf(undefined);
    try {
      const body = {
        name: name.trim(),
        stage,
        ...(email.trim() && { email: email.trim() }),
        ...(phone.trim() && { phone: phone.trim() }),
        ...(resume.trim() && { resume_url: resume.trim() }),
        ...(reqId && { req_id: reqId }),
      };
      const { data } = await unwrap(api.POST('/api/candidates', { body }));
      let notAttached: string | undefined;
      if (cv && data.person_id) {
        const attach = { params: { path: { id: data.person_id } }, body: { upload_id: cv.uploadId, kind: 'resume' as const } };
        notAttached = await unwrap(api.POST('/api/people/{id}/files', attach)).then(() => undefined, errorText);
      } else if (cv) notAttached = 'the candidate has no person to attach it to yet';
      onCreated({ id: data.id, name: data.name, ...(notAttached && { notAttached }) });
    } catch (err) {
      if (err instanceof ApiError && err.detail.code === 'duplicate_candidate' && err.detail.existingId) {
        setDuplicateOf(err.detail.existingId);
        return;
      }
      setErrors(formErrors(err, FIELDS));
    } finally {
      setBusy(false);
    }
  };

  const reqError = errors.fields.req_id;
  return (
    <FormDialog
      open={open}
      title={requisition ? `Add a candidate to ${requisition.title}` : cv ? `Add a candidate from ${cv.filename}` : 'Add a candidate'}
      submitLabel="Add candidate"
      busy={busy}
      error={errors.general}
      onSubmit={submit}
      onClose={onClose}
    >
      {duplicateOf && (
        <Notice kind="warning">
          This person is already a candidate {reqId ? 'for this requisition' : 'without a requisition'}.{' '}
          <Link href={`/candidates/${duplicateOf}`}>Open the existing candidate</Link>, or choose another requisition.
        </Notice>
      )}
      {cv && (
        <p>
          From {cv.filename}, attached to the new candidate as their CV.{' '}
          {cv.suggestions.email || cv.suggestions.phone
            ? 'What it holds is offered beside the empty fields; nothing is filled in unless you choose it.'
            : 'No email or phone was found in it.'}
        </p>
      )}
      <Field id="new-name" label="Name" required value={name} onInput={setName} error={errors.fields.name} inputRef={nameRef} />
      <Field id="new-email" label="Email" type="email" value={email} onInput={setEmail} error={errors.fields.email} inputRef={emailRef} />
      <Suggestion value={email ? undefined : cv?.suggestions.email} field="email" use={setEmail} then={emailRef} />
      <Field id="new-phone" label="Phone" type="tel" value={phone} onInput={setPhone} error={errors.fields.phone} inputRef={phoneRef} />
      <Suggestion value={phone ? undefined : cv?.suggestions.phone} field="phone" use={setPhone} then={phoneRef} />
      <Field
        id="new-resume"
        label="Resume URL"
        type="url"
        value={resume}
        onInput={setResume}
        error={errors.fields.resume_url}
        hint="An http:// or https:// link."
      />
      {requisition ? (
        <div class="field">
          <p class="fixed">
            <span class="label">Requisition</span> {requisition.title} <span class="badge">{reqStatusLabel(requisition.status)}</span>
          </p>
          {reqError && (
            <p class="field-error" id="new-req-error" role="alert">
              {reqError}
            </p>
          )}
        </div>
      ) : (
        <div class="field">
          <label for="new-req">
            Requisition<span class="optional"> (optional)</span>
          </label>
          <select
            id="new-req"
            value={reqId}
            onChange={(e) => setReqId(e.currentTarget.value)}
            aria-invalid={reqError ? 'true' : undefined}
            aria-describedby={reqError ? 'new-req-error' : 'new-req-hint'}
          >
            <option value="">No requisition</option>
            {Array.isArray(openReqs) &&
              openReqs.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.title}
                </option>
              ))}
          </select>
          <p class="hint" id="new-req-hint">
            {openReqs === undefined
              ? 'Loading the open requisitions…'
              : openReqs === 'error'
                ? 'Could not load the open requisitions; you can add the candidate without one.'
                : 'Only open requisitions take candidates.'}
          </p>
          {reqError && (
            <p class="field-error" id="new-req-error" role="alert">
              {reqError}
            </p>
          )}
        </div>
      )}
      <div class="field">
        <label for="new-stage">Stage</label>
        <select
          id="new-stage"
          value={stage}
          onChange={(e) => setStage(e.currentTarget.value as Stage)}
          aria-invalid={errors.fields.stage ? 'true' : undefined}
        >
          {STAGES.map((s) => (
            <option key={s} value={s}>
              {stageLabel(s)}
            </option>
          ))}
        </select>
        {errors.fields.stage && <p class="field-error">{errors.fields.stage}</p>}
      </div>
    </FormDialog>
  );
}

/** A value found in the CV, offered beside its empty field: used only when chosen, then the field has focus. */
function Suggestion({
  value,
  field,
  use,
  then,
}: {
  value: string | undefined;
  field: string;
  use: (v: string) => void;
  then: { current: HTMLInputElement | null };
}) {
  if (!value) return null;
  return (
    <p class="suggestion">
      <span class="hint">Found in the CV:</span>{' '}
      <button
        type="button"
        aria-label={`Use ${value} as the ${field}`}
        onClick={() => {
          use(value);
          then.current?.focus();
        }}
      >
        Use {value}
      </button>
    </p>
  );
}
