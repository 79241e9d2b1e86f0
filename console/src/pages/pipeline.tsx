/**
 * Pipeline settings: the stuck threshold per stage, defaults shown, 0 turns a stage off; and the
 * retention rules, saved only after a dry run has shown how many candidates they would erase; and
 * the rejection reasons (./rejection-reasons.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, unwrap, type paths } from '../api/client';
import { stageLabel } from '../labels';
import { Link } from '../router';
import { isAdmin, useSession } from '../session';
import { Loaded, Notice, PageTitle, useLoad, useSave } from '../ui';
import { RejectionReasonsForm } from './rejection-reasons';

const fetchSettings = async () => (await unwrap(api.GET('/api/settings/pipeline'))).data;
type Settings = Awaited<ReturnType<typeof fetchSettings>>;
type StuckDays = paths['/api/settings/pipeline']['put']['requestBody']['content']['application/json']['stuck_days'];

export function PipelineSettings() {
  const [load, reload] = useLoad(fetchSettings);
  return (
    <>
      <PageTitle title="Pipeline settings">Pipeline settings</PageTitle>
      <p class="lead">
        A candidate counts as stuck once they have spent this many days in a stage. Stuck candidates are listed on the{' '}
        <Link href="/">overview</Link> and in <code>GET /api/v1/pipeline</code>.
      </p>
      <Loaded load={load} what="the pipeline settings" retry={reload}>
        {(s) => (
          <>
            <ThresholdForm settings={s} onSaved={reload} />
            <RetentionForm settings={s} onSaved={reload} />
            <RejectionReasonsForm settings={s} onSaved={reload} />
          </>
        )}
      </Loaded>
    </>
  );
}

function ThresholdForm({ settings, onSaved }: { settings: Settings; onSaved: () => Promise<void> }) {
  const { session } = useSession();
  const admin = isAdmin(session);
  const defaults = settings.defaults as Record<string, number>;
  const current = settings.stuck_days as Record<string, number>;
  const stages = Object.keys(defaults);
  const initial = () => Object.fromEntries(stages.map((s) => [s, String(current[s] ?? defaults[s])])) as Record<string, string>;
  const [values, setValues] = useState(initial);
  const { busy, error, setError, saved, save } = useSave();
  useEffect(() => setValues(initial()), [settings]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const body: Record<string, number> = {};
    for (const s of stages) {
      const raw = values[s]!.trim();
      if (raw === '') continue; // empty: back to the default
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 0 || n > 365) return setError(`${stageLabel(s)}: enter a whole number of days from 0 to 365.`);
      body[s] = n;
    }
    await save(async () => {
      await unwrap(api.PUT('/api/settings/pipeline', { body: { stuck_days: body as StuckDays } }));
    }, onSaved);
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="thresholds-h" noValidate>
      <h2 id="thresholds-h">Stuck thresholds (days)</h2>
      {!admin && <Notice>Only workspace admins can change these. You can see the values in force.</Notice>}
      <p class="hint">0 turns the check off for a stage. Leave a field empty to go back to its default.</p>
      <div class="grid-fields">
        {stages.map((s) => (
          <div class="field" key={s}>
            <label for={`stuck-${s}`}>{stageLabel(s)}</label>
            <input
              id={`stuck-${s}`}
              type="number"
              inputMode="numeric"
              min={0}
              max={365}
              step={1}
              readOnly={!admin}
              placeholder={String(defaults[s])}
              value={values[s]}
              aria-describedby={`stuck-${s}-hint`}
              onInput={(e) => setValues({ ...values, [s]: e.currentTarget.value })}
            />
            <p class="hint" id={`stuck-${s}-hint`}>
              Default {defaults[s]}
              {values[s] === '0' ? ' · off' : ''}
            </p>
          </div>
        ))}
      </div>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      {saved && <Notice kind="success">Thresholds saved. The overview uses them from now on.</Notice>}
      {admin && (
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save thresholds'}
        </button>
      )}
    </form>
  );
}

const RULES = [
  ['rejected_days', 'Erase candidates this many days after they were rejected'],
  ['inactive_days', 'Erase candidates with no change for this many days'],
] as const;
type Rule = (typeof RULES)[number][0];

function RetentionForm({ settings, onSaved }: { settings: Settings; onSaved: () => Promise<void> }) {
  const { session } = useSession();
  const admin = isAdmin(session);
  const initial = () =>
    Object.fromEntries(RULES.map(([r]) => [r, settings.retention[r] === null ? '' : String(settings.retention[r])])) as Record<
      Rule,
      string
    >;
  const [values, setValues] = useState(initial);
  const [preview, setPreview] = useState<{ total: number; text: string; rules: Record<Rule, number | null> }>();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => setValues(initial()), [settings]);

  const parsed = (): Record<Rule, number | null> | string => {
    const out = {} as Record<Rule, number | null>;
    for (const [r, label] of RULES) {
      const raw = values[r].trim();
      if (raw === '') {
        out[r] = null;
        continue;
      }
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 1 || n > 3650)
        return `${label}: enter a whole number of days from 1 to 3650, or leave it empty (off).`;
      out[r] = n;
    }
    return out;
  };

  // First a dry run: how many candidates would the next run erase? Then saving is one more click.
  const check = async (e: Event) => {
    e.preventDefault();
    const rules = parsed();
    if (typeof rules === 'string') return setError(rules);
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      const query = {
        ...(rules.rejected_days !== null && { preview_rejected_days: rules.rejected_days }),
        ...(rules.inactive_days !== null && { preview_inactive_days: rules.inactive_days }),
      };
      const p = Object.keys(query).length
        ? (await unwrap(api.GET('/api/settings/pipeline', { params: { query } }))).data.retention_preview
        : undefined;
      const total = p?.total ?? 0;
      const text = p
        ? `The next run would erase ${p.capped ? 'at least ' : ''}${total} candidate${total === 1 ? '' : 's'} (${p.rejected_days} rejected long enough ago, ${p.inactive_days} without changes).`
        : 'Both rules off: nothing will be erased.';
      setPreview({ total, text, rules });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    if (!preview) return;
    setBusy(true);
    setError(undefined);
    try {
      const stuck = settings.stuck_days as StuckDays;
      await unwrap(api.PUT('/api/settings/pipeline', { body: { stuck_days: stuck, retention: preview.rules } }));
      setSaved(true);
      setPreview(undefined);
      await onSaved();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={check} aria-labelledby="retention-h" noValidate>
      <h2 id="retention-h">Retention rules</h2>
      <p class="hint">
        Both off by default. A rule erases the matching candidates' personal data once a day, as the service (actor <code>system</code>),
        exactly as an admin's erasure does. Leave a field empty to turn its rule off.
      </p>
      <div class="grid-fields">
        {RULES.map(([r, label]) => (
          <div class="field" key={r}>
            <label for={`retention-${r}`}>{label}</label>
            <input
              id={`retention-${r}`}
              type="number"
              inputMode="numeric"
              min={1}
              max={3650}
              step={1}
              readOnly={!admin}
              placeholder="Off"
              value={values[r]}
              onInput={(e) => {
                setValues({ ...values, [r]: e.currentTarget.value });
                setPreview(undefined);
              }}
            />
          </div>
        ))}
      </div>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      {preview && (
        <div role="status">
          <Notice kind={preview.total ? 'warning' : 'info'}>{preview.text}</Notice>
        </div>
      )}
      {saved && <Notice kind="success">Retention rules saved. They run once a day.</Notice>}
      {admin &&
        (preview ? (
          <button type="button" class={preview.total ? 'danger' : 'primary'} disabled={busy} onClick={save}>
            {busy ? 'Saving…' : 'Save retention rules'}
          </button>
        ) : (
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Checking…' : 'Check and save…'}
          </button>
        ))}
    </form>
  );
}
