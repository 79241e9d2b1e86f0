/** Pipeline settings: the stuck threshold per stage, defaults shown, 0 turns a stage off. */
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, unwrap, type paths } from '../api/client';
import { stageLabel } from '../labels';
import { Link } from '../router';
import { isAdmin, useSession } from '../session';
import { Loaded, Notice, PageTitle, useLoad } from '../ui';

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
        {(s) => <ThresholdForm settings={s} onSaved={reload} />}
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
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
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
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await unwrap(api.PUT('/api/settings/pipeline', { body: { stuck_days: body as StuckDays } }));
      setSaved(true);
      await onSaved();
    } catch (err) {
      setError(errorText(err)); // the typed values stay
    } finally {
      setBusy(false);
    }
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
