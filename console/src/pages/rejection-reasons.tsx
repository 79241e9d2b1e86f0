/**
 * Pipeline settings: the workspace's rejection reasons (the list a rejection chooses from) and
 * whether a rejection must give one. Admins edit; members see the list in force.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap, type paths } from '../api/client';
import { forgetRejectionReasons } from '../recruiting';
import { isAdmin, useSession } from '../session';
import { Notice, useSave } from '../ui';

type Put = paths['/api/settings/pipeline']['put']['requestBody']['content']['application/json'];
type Reason = NonNullable<Put['rejection_reasons']>[number];
const TYPES: { value: Reason['type']; label: string }[] = [
  { value: 'we_rejected', label: 'We rejected' },
  { value: 'candidate_withdrew', label: 'Candidate withdrew' },
];
const MAX = 50;

/** A new reason's id: its label's words, kept stable once saved (moves store it). */
const idFor = (label: string, taken: Set<string>) => {
  const base =
    label
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 32) || 'reason';
  let id = base;
  for (let i = 2; taken.has(id); i++) id = `${base}_${i}`;
  return id;
};

export function RejectionReasonsForm({
  settings,
  onSaved,
}: {
  settings: { stuck_days: unknown; rejection_reasons: Reason[]; require_rejection_reason: boolean };
  onSaved: () => Promise<void>;
}) {
  const { session } = useSession();
  const admin = isAdmin(session);
  const [rows, setRows] = useState<(Reason | { id: ''; label: string; type: Reason['type'] })[]>(settings.rejection_reasons);
  const [required, setRequired] = useState(settings.require_rejection_reason);
  const { busy, error, setError, saved, setSaved, save } = useSave();
  useEffect(() => {
    setRows(settings.rejection_reasons);
    setRequired(settings.require_rejection_reason);
  }, [settings]);

  const change = (i: number, patch: Partial<Reason>) => {
    setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    setSaved(false);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const blank = rows.findIndex((r) => !r.label.trim());
    if (blank >= 0) return setError(`Reason ${blank + 1}: enter a label, or remove it.`);
    if (!rows.length) return setError('Keep at least one reason.');
    const taken = new Set(rows.map((r) => r.id).filter(Boolean));
    const reasons = rows.map((r) => {
      if (r.id) return { ...r, label: r.label.trim() } as Reason;
      const id = idFor(r.label, taken);
      taken.add(id);
      return { id, label: r.label.trim(), type: r.type };
    });
    await save(
      async () => {
        await unwrap(
          api.PUT('/api/settings/pipeline', {
            body: { stuck_days: settings.stuck_days as Put['stuck_days'], rejection_reasons: reasons, require_rejection_reason: required },
          }),
        );
      },
      async () => {
        forgetRejectionReasons();
        await onSaved();
      },
    );
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="rejection-h" noValidate>
      <h2 id="rejection-h">Rejection reasons</h2>
      {!admin && <Notice>Only admins edit the rejection reasons; these are the ones in force.</Notice>}
      <p class="hint">
        A rejection in the console always asks for one of these. Through the API a reason is optional unless required below.
      </p>
      <ul class="reason-list">
        {rows.map((r, i) => (
          <li key={r.id || `new-${i}`} class="grid-fields">
            <div class="field">
              <label for={`reason-${i}-label`}>Reason {i + 1}</label>
              <input
                id={`reason-${i}-label`}
                type="text"
                maxLength={80}
                readOnly={!admin}
                value={r.label}
                onInput={(e) => change(i, { label: e.currentTarget.value })}
              />
            </div>
            <div class="field">
              <label for={`reason-${i}-type`}>Type of reason {i + 1}</label>
              <select
                id={`reason-${i}-type`}
                value={r.type}
                disabled={!admin}
                onChange={(e) => change(i, { type: e.currentTarget.value as Reason['type'] })}
              >
                {TYPES.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </select>
            </div>
            {admin && (
              <button
                type="button"
                onClick={() => setRows(rows.filter((_, j) => j !== i))}
                aria-label={`Remove reason ${i + 1}: ${r.label}`}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {admin && rows.length < MAX && (
        <button type="button" onClick={() => setRows([...rows, { id: '', label: '', type: 'we_rejected' }])}>
          Add a reason
        </button>
      )}
      <div class="field">
        <label>
          <input type="checkbox" checked={required} disabled={!admin} onChange={(e) => setRequired(e.currentTarget.checked)} /> Require a
          reason for every rejection, API included
        </label>
      </div>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      {saved && <Notice kind="success">Rejection reasons saved.</Notice>}
      {admin && (
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save rejection reasons'}
        </button>
      )}
    </form>
  );
}
