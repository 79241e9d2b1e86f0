/** The profile's parts: the edit form (opened on demand), the stage history, erasure. */
import { useRef, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { stageLabel } from '../labels';
import { actorText, daysBetween, Field, formErrors, noErrors, type CandidateDetail, type FormErrors } from '../recruiting';
import { isAdmin, useSession } from '../session';
import { ConfirmDialog, Notice, useFocusOnShow, When } from '../ui';

const PROFILE = ['name', 'email', 'phone', 'resume_url'] as const;
type ProfileField = (typeof PROFILE)[number];
const LABELS: Record<ProfileField, string> = { name: 'Name', email: 'Email', phone: 'Phone', resume_url: 'Resume URL' };
const TYPES = { name: 'text', email: 'email', phone: 'tel', resume_url: 'url' } as const;

/**
 * The profile's edit form, opened by the page's Edit action: focus goes to its first field, and
 * back to Edit when it closes (saved or cancelled). What was typed stays on a refusal.
 */
export function EditProfile({ c, onSaved, onClose }: { c: CandidateDetail; onSaved: () => Promise<void>; onClose: () => void }) {
  const initial = () => Object.fromEntries(PROFILE.map((f) => [f, c[f] ?? ''])) as Record<ProfileField, string>;
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string>();
  const first = useRef<HTMLInputElement>(null);
  useFocusOnShow(first);

  const submit = async (e: Event) => {
    e.preventDefault();
    setSaved(undefined);
    const body: Partial<Record<ProfileField, string | null>> = {};
    for (const f of PROFILE) {
      const v = values[f].trim();
      if (v === (c[f] ?? '')) continue;
      // An emptied optional field is cleared; the name cannot be.
      body[f] = v === '' && f !== 'name' ? null : v;
    }
    if (Object.keys(body).length === 0) return setSaved('Nothing changed.');
    setBusy(true);
    setErrors(noErrors);
    try {
      await unwrap(api.PATCH('/api/candidates/{id}', { params: { path: { id: c.id } }, body: body as { name?: string } }));
      await onSaved();
    } catch (err) {
      setErrors(formErrors(err, PROFILE)); // what was typed stays
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="card"
      onSubmit={submit}
      aria-labelledby="profile-h"
      noValidate
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) onClose();
      }}
    >
      <h2 id="profile-h">Edit profile</h2>
      <div class="grid-fields">
        {PROFILE.map((f) => (
          <Field
            key={f}
            id={`profile-${f}`}
            label={LABELS[f]}
            type={TYPES[f]}
            required={f === 'name'}
            value={values[f]}
            onInput={(v) => setValues({ ...values, [f]: v })}
            error={errors.fields[f]}
            inputRef={f === 'name' ? first : undefined}
            hint={f === 'name' ? undefined : 'Empty it to remove it.'}
          />
        ))}
      </div>
      {errors.general && (
        <p class="alert error" role="alert">
          {errors.general}
        </p>
      )}
      {saved && <Notice kind="success">{saved}</Notice>}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save profile'}
        </button>
        <button type="button" onClick={onClose} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function History({ c }: { c: CandidateDetail }) {
  const stays = [...c.stage_history].reverse(); // newest first: the current stage leads
  return (
    <section aria-labelledby="history-h">
      <h2 id="history-h">Stage history</h2>
      <ol class="timeline">
        {stays.map((s) => (
          <li key={s.entered_at + s.stage}>
            <h3>{stageLabel(s.stage)}</h3>
            <dl class="facts">
              <dt>Entered</dt>
              <dd>
                <When iso={s.entered_at} />
              </dd>
              <dt>Left</dt>
              <dd>{s.exited_at ? <When iso={s.exited_at} /> : 'Still here'}</dd>
              <dt>Days</dt>
              <dd>{daysBetween(s.entered_at, s.exited_at)}</dd>
              <dt>Moved by</dt>
              <dd>{s.from_stage ? `${actorText(s.actor)} (from ${stageLabel(s.from_stage)})` : '— (added in this stage)'}</dd>
              {s.rejection_reason && (
                <>
                  <dt>Reason</dt>
                  <dd>
                    {s.rejection_reason.label} ({s.rejection_reason.type === 'candidate_withdrew' ? 'candidate withdrew' : 'we rejected'})
                  </dd>
                </>
              )}
            </dl>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * Erasure, for admins: the name must be typed to confirm, as the change cannot be undone. The
 * receipt says how many stored copies went.
 */
export function Erase({ c, onErased }: { c: CandidateDetail; onErased: (receipt: string) => Promise<void> }) {
  const { session } = useSession();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  if (!isAdmin(session)) return null;
  return (
    <section class="card" aria-labelledby="erase-h">
      <h2 id="erase-h">Erase personal data</h2>
      <p class="hint">
        Removes the name, email, phone and resume link here and from every copy the service keeps (search, webhook bodies, delivery logs,
        retries). The stage, requisition, history and counts stay. Receivers get a <code>candidate.erased</code> event.
      </p>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setTyped('');
          setOpen(true);
        }}
      >
        Erase this candidate…
      </button>
      <ConfirmDialog
        open={open}
        title="Erase this candidate's personal data?"
        confirmLabel="Erase for good"
        danger
        confirmDisabled={typed.trim() !== c.name.trim()}
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          const r = (await unwrap(api.POST('/api/candidates/{id}/erase', { params: { path: { id: c.id } } }))).data;
          const copies = Object.values(r.scrubbed).reduce((a, b) => a + b, 0);
          await onErased(`Erased. ${copies} stored item${copies === 1 ? '' : 's'} scrubbed.`);
        }}
      >
        <p>This cannot be undone. Type the candidate's name to confirm.</p>
        <div class="field">
          <label for="erase-confirm">Name</label>
          <input
            id="erase-confirm"
            type="text"
            autoComplete="off"
            value={typed}
            placeholder={c.name}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </div>
      </ConfirmDialog>
    </section>
  );
}
